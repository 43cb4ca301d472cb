export { changedTokens, providerProjection, type ProviderDocument, type TokenDocument } from './provider-projection';
export { PROVIDER_READ_MODEL, type ProviderReadModel, type ProviderRecord, type TokenRecord } from './provider-read.port';
