export * from './provider-operations';
export * from './trainee-commands';
