export * from './caller';
export * from './trainee-write.ports';
export * from './handle-trainee-command';
