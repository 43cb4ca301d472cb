export * from './registry.port';
export * from './sandbox-registry';
export * from './http-registry';
export * from './registry-process-manager';
export * from './create-registry';
