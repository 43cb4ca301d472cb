export { decodeProviderEvent } from './provider.codec';
export {
  PROVIDER_STREAM_PREFIX,
  ProviderCommandRejected,
  decideProvider,
  defaultTokenExpiry,
  evolveProvider,
  initialProviderState,
  isValidUkprn,
  providerStreamId,
  tokenAuthenticates,
  type ProviderCommand,
  type ProviderEvent,
  type ProviderState,
} from './provider';
