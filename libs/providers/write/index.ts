export { ProviderOperations, UnknownToken } from './provider-operations';
export { hashToken, londonDate, tokenFromAuthorizationHeader } from './tokens';
