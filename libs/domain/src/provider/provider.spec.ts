import { DeciderSpecification } from '../testing/decider-specification';
import {
  PROVIDER_NAME,
  PROVIDER_NOW,
  PROVIDER_UKPRN,
  issueToken,
  providerRegistered,
  registerProvider,
  revokeToken,
  tokenIssued,
  tokenRevoked,
} from '../testing/provider-fixtures';
import { ProviderCommandRejected, decideProvider, evolveProvider, initialProviderState } from './provider';

const spec = DeciderSpecification.for({ decide: decideProvider, evolve: evolveProvider, initialState: () => initialProviderState });

/** Asserts the rejection's operator message. */
const saying = (message: string) => (e: ProviderCommandRejected) => expect(e.message).toBe(message);

describe('provider decider: RegisterProvider', () => {
  it('registers a provider under its trimmed name', () => {
    spec
      .given([])
      .when(registerProvider())
      .then([providerRegistered({ at: PROVIDER_NOW })]);
    spec
      .given([])
      .when(registerProvider({ name: `  ${PROVIDER_NAME}\n` }))
      .then([providerRegistered({ at: PROVIDER_NOW })]);
  });

  it.each(['1234567', '123456789', '1000000A', ''])('rejects the UKPRN %j: eight digits are needed', (ukprn) => {
    spec
      .given([])
      .when(registerProvider({ ukprn }))
      .thenThrows(ProviderCommandRejected, saying(`UKPRN must be 8 digits, got '${ukprn}'`));
  });

  it('rejects a blank name', () => {
    spec
      .given([])
      .when(registerProvider({ name: '   ' }))
      .thenThrows(ProviderCommandRejected, saying('Provider name must not be blank'));
  });

  it('rejects a provider already registered', () => {
    spec
      .given([providerRegistered()])
      .when(registerProvider({ name: 'Another name' }))
      .thenThrows(ProviderCommandRejected, saying(`Provider ${PROVIDER_UKPRN} is already registered`));
  });
});

describe('provider decider: IssueToken', () => {
  it('issues a token, recording only its hash', () => {
    spec
      .given([providerRegistered()])
      .when(issueToken())
      .then([tokenIssued({ at: PROVIDER_NOW })]);
  });

  it('issues further tokens beside a revoked one', () => {
    spec
      .given([providerRegistered(), tokenIssued(), tokenRevoked()])
      .when(issueToken({ token_id: 'K2', token_hash: 'f'.repeat(64) }))
      .then([tokenIssued({ token_id: 'K2', token_hash: 'f'.repeat(64), at: PROVIDER_NOW })]);
  });

  it('rejects a token for a provider not registered', () => {
    spec
      .given([])
      .when(issueToken())
      .thenThrows(ProviderCommandRejected, saying(`No provider with UKPRN ${PROVIDER_UKPRN}`));
  });
});

describe('provider decider: RevokeToken', () => {
  it('revokes an active token', () => {
    spec
      .given([providerRegistered(), tokenIssued()])
      .when(revokeToken())
      .then([tokenRevoked({ at: PROVIDER_NOW })]);
  });

  it('revokes only the token named', () => {
    spec
      .given([providerRegistered(), tokenIssued(), tokenIssued({ token_id: 'K2' })])
      .when(revokeToken({ token_id: 'K2' }))
      .then([tokenRevoked({ token_id: 'K2', at: PROVIDER_NOW })]);
  });

  it('rejects an unknown token', () => {
    spec
      .given([providerRegistered(), tokenIssued()])
      .when(revokeToken({ token_id: 'K2' }))
      .thenThrows(ProviderCommandRejected, saying(`No token K2 for provider ${PROVIDER_UKPRN}`));
    spec
      .given([])
      .when(revokeToken())
      .thenThrows(ProviderCommandRejected, saying(`No token K1 for provider ${PROVIDER_UKPRN}`));
  });

  it('rejects a token already revoked', () => {
    spec
      .given([providerRegistered(), tokenIssued(), tokenRevoked()])
      .when(revokeToken())
      .thenThrows(ProviderCommandRejected, saying('Token K1 is already revoked'));
  });
});

describe('provider evolve', () => {
  it('folds the provider and the status of each of its tokens', () => {
    const events = [providerRegistered(), tokenIssued(), tokenIssued({ token_id: 'K2' }), tokenRevoked()];
    expect(events.reduce(evolveProvider, initialProviderState)).toStrictEqual({
      exists: true,
      ukprn: PROVIDER_UKPRN,
      name: PROVIDER_NAME,
      tokens: { K1: 'revoked', K2: 'active' },
    });
    expect(initialProviderState).toStrictEqual({ exists: false, ukprn: null, name: null, tokens: {} });
  });
});
