import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import {
  ISSUE_EXPIRES_AT,
  PROVIDER_NAME,
  PROVIDER_NOW,
  PROVIDER_TODAY,
  PROVIDER_UKPRN,
  TOKEN_USED_ON,
  issueToken,
  providerRegistered,
  recordTokenUse,
  registerProvider,
  revokeToken,
  tokenIssued,
  tokenRevoked,
  tokenUsed,
} from './testing/provider-fixtures';
import { upcast } from '@app/event-sourcing';
import {
  PROVIDER_EVENT_SCHEMA_VERSIONS,
  ProviderCommandRejected,
  decideProvider,
  defaultTokenExpiry,
  evolveProvider,
  initialProviderState,
  tokenAuthenticates,
} from './provider';
import './provider.upcasters';

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
  it('issues a token, recording only its hash and its expiry date', () => {
    spec
      .given([providerRegistered()])
      .when(issueToken())
      .then([tokenIssued({ expires_at: ISSUE_EXPIRES_AT, at: PROVIDER_NOW })]);
  });

  it('accepts any expiry from tomorrow to six months ahead (API-FACTS §2.6)', () => {
    for (const expires_at of ['2026-11-23', '2027-01-31', '2027-05-22']) {
      spec
        .given([providerRegistered()])
        .when(issueToken({ expires_at }))
        .then([tokenIssued({ expires_at, at: PROVIDER_NOW })]);
    }
  });

  it('rejects an expiry today or earlier (a token expiring today is already invalid, API-FACTS §2.4)', () => {
    for (const expires_at of [PROVIDER_TODAY, '2026-01-01']) {
      spec
        .given([providerRegistered()])
        .when(issueToken({ expires_at }))
        .thenThrows(ProviderCommandRejected, saying(`Expiry date must be after today (${PROVIDER_TODAY}), got ${expires_at}`));
    }
  });

  it('rejects an expiry more than six months ahead', () => {
    spec
      .given([providerRegistered()])
      .when(issueToken({ expires_at: '2027-05-23' }))
      .thenThrows(ProviderCommandRejected, saying('Expiry date must be at most 6 months ahead (2027-05-22), got 2027-05-23'));
  });

  it.each(['2027-02-30', '27-01-01', '20270101', '2027-01-01T00:00:00Z', ''])(
    'rejects the expiry %j: not a date YYYY-MM-DD',
    (expires_at) => {
      spec
        .given([providerRegistered()])
        .when(issueToken({ expires_at }))
        .thenThrows(ProviderCommandRejected, saying(`Expiry date must be a date YYYY-MM-DD, got '${expires_at}'`));
    },
  );

  it('defaults to six months ahead, clamped to the end of a shorter month', () => {
    expect(defaultTokenExpiry(PROVIDER_TODAY)).toBe(ISSUE_EXPIRES_AT);
    expect(defaultTokenExpiry('2026-08-31')).toBe('2027-02-28');
  });

  it('issues further tokens beside a revoked one', () => {
    spec
      .given([providerRegistered(), tokenIssued(), tokenRevoked()])
      .when(issueToken({ token_id: 'K2', token_hash: 'f'.repeat(64) }))
      .then([tokenIssued({ token_id: 'K2', token_hash: 'f'.repeat(64), expires_at: ISSUE_EXPIRES_AT, at: PROVIDER_NOW })]);
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

describe('provider decider: RecordTokenUse (API-FACTS §2.7)', () => {
  it('records the first use of an active token', () => {
    spec
      .given([providerRegistered(), tokenIssued()])
      .when(recordTokenUse())
      .then([tokenUsed({ on: PROVIDER_TODAY, at: PROVIDER_NOW })]);
  });

  it('records a use on a later day than the last one recorded', () => {
    spec
      .given([providerRegistered(), tokenIssued(), tokenUsed()])
      .when(recordTokenUse())
      .then([tokenUsed({ on: PROVIDER_TODAY, at: PROVIDER_NOW })]);
  });

  it('records at most one use a day, and none for an earlier day', () => {
    spec
      .given([providerRegistered(), tokenIssued(), tokenUsed()])
      .when(recordTokenUse({ on: TOKEN_USED_ON }))
      .then([]);
    spec
      .given([providerRegistered(), tokenIssued(), tokenUsed({ on: PROVIDER_TODAY })])
      .when(recordTokenUse({ on: TOKEN_USED_ON }))
      .then([]);
  });

  it('records nothing for an unknown or revoked token', () => {
    spec
      .given([providerRegistered(), tokenIssued()])
      .when(recordTokenUse({ token_id: 'K2' }))
      .then([]);
    spec.given([providerRegistered(), tokenIssued(), tokenRevoked()]).when(recordTokenUse()).then([]);
  });
});

describe('tokenAuthenticates (API-FACTS §2.4)', () => {
  it('holds for an active token whose expiry is after today or absent', () => {
    expect(tokenAuthenticates({ status: 'active', expires_at: '2026-11-23' }, PROVIDER_TODAY)).toBe(true);
    expect(tokenAuthenticates({ status: 'active', expires_at: null }, PROVIDER_TODAY)).toBe(true);
  });

  it('fails on the expiry date itself, after it, and for a revoked token', () => {
    expect(tokenAuthenticates({ status: 'active', expires_at: PROVIDER_TODAY }, PROVIDER_TODAY)).toBe(false);
    expect(tokenAuthenticates({ status: 'active', expires_at: '2026-11-21' }, PROVIDER_TODAY)).toBe(false);
    expect(tokenAuthenticates({ status: 'revoked', expires_at: null }, PROVIDER_TODAY)).toBe(false);
  });
});

describe('provider event upcasters', () => {
  it('reads a TokenIssued of schema v1 (before expiry) as a token that never expires', () => {
    expect(PROVIDER_EVENT_SCHEMA_VERSIONS.TokenIssued).toBe(2);
    const { expires_at: _, ...v1 } = tokenIssued().data;
    expect(upcast('TokenIssued', 1, 2, v1)).toStrictEqual({ ...v1, expires_at: null });
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
    const used = [...events, tokenUsed({ token_id: 'K2', on: PROVIDER_TODAY }), tokenUsed({ token_id: 'K2' })];
    expect(used.reduce(evolveProvider, initialProviderState).tokens_used_on).toStrictEqual({ K2: PROVIDER_TODAY });
    expect(initialProviderState).toStrictEqual({ exists: false, ukprn: null, name: null, tokens: {} });
  });
});
