export * from './trainee-history';
