export * from './projection';
export * from './trainee-projection';
export * from './provider-projection';
