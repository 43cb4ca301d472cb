import { ConfigError, loadConfig } from './config';
import { createRegistry, type TrnRequest } from '@app/registry';

const trnRequest: TrnRequest = {
  idempotency_key: 'k1',
  trainee_id: 'T1',
  provider_ukprn: '10000001',
  first_names: 'A',
  last_name: 'B',
  date_of_birth: '1990-01-01',
  email: 'a@example.com',
};

/** Whether `promise` settles before a 0 ms timer fires (an answer "at once" settles within the current turn). */
async function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 0))]);
}

describe('loadConfig: sandbox registry delays (docs/reference/API-FACTS.md §12.1, §12.5)', () => {
  it('defaults to 60 000 ms for the TRN and for the award', () => {
    const config = loadConfig({});
    expect(config.registryTrnDelayMs).toBe(60_000);
    expect(config.registryAwardDelayMs).toBe(60_000);
  });

  it('takes whole numbers of ms, 0 included', () => {
    expect(loadConfig({ REGISTRY_TRN_DELAY_MS: '0', REGISTRY_AWARD_DELAY_MS: '0' })).toMatchObject({
      registryTrnDelayMs: 0,
      registryAwardDelayMs: 0,
    });
    expect(loadConfig({ REGISTRY_TRN_DELAY_MS: ' 300 ', REGISTRY_AWARD_DELAY_MS: '2147483647' })).toMatchObject({
      registryTrnDelayMs: 300,
      registryAwardDelayMs: 2_147_483_647,
    });
  });

  it.each(['-1', '1.5', '6e4', 'soon', '', '2147483648'])('refuses %j with a ConfigError naming the variable', (value) => {
    expect(() => loadConfig({ REGISTRY_TRN_DELAY_MS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ REGISTRY_TRN_DELAY_MS: value })).toThrow(/REGISTRY_TRN_DELAY_MS: Invalid delay/);
    expect(() => loadConfig({ REGISTRY_AWARD_DELAY_MS: value })).toThrow(/REGISTRY_AWARD_DELAY_MS: Invalid delay/);
  });

  it('names both variables when both are bad', () => {
    let message = '';
    try {
      loadConfig({ REGISTRY_TRN_DELAY_MS: '-5', REGISTRY_AWARD_DELAY_MS: 'x' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/REGISTRY_TRN_DELAY_MS: .*"-5"/);
    expect(message).toMatch(/REGISTRY_AWARD_DELAY_MS: .*"x"/);
  });

  it('0 keeps the sandbox registry answering at once; the default makes it wait', async () => {
    const instant = createRegistry(loadConfig({ REGISTRY_TRN_DELAY_MS: '0', REGISTRY_AWARD_DELAY_MS: '0' }))!;
    const now = new Date().toISOString();
    expect(await settlesAtOnce(instant.requestTrn(trnRequest, undefined, { requestedAt: now }))).toBe(true);
    expect(
      await settlesAtOnce(
        instant.recommendForAward({ idempotency_key: 'k2', trainee_id: 'T1', trn: '1234567', outcome_date: '2026-03-01' }, undefined, {
          requestedAt: now,
        }),
      ),
    ).toBe(true);

    const waiting = createRegistry(loadConfig({}))!;
    const abort = new AbortController();
    const pending = waiting.requestTrn(trnRequest, abort.signal, { requestedAt: now });
    pending.catch(() => undefined);
    expect(await settlesAtOnce(pending)).toBe(false);
    abort.abort();
    await expect(pending).rejects.toThrow('aborted');
  });
});

describe('loadConfig: admission and health settings (docs/operations.md "Configuration")', () => {
  it('defaults to loopback, 100 requests a minute per IP and per token, no blocklists', () => {
    expect(loadConfig({})).toMatchObject({
      host: '127.0.0.1',
      trustProxy: false,
      rateLimitIpPerMinute: 100,
      rateLimitTokenPerMinute: 100,
      blockedIps: [],
      blockedUserAgents: [],
      readyMaxLagSeconds: 30,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      connectionTimeoutMs: 60_000,
      keepAliveTimeoutMs: 10_000,
      maxRequestsPerSocket: 1000,
      maxConnections: 1024,
    });
  });

  it('defaults each provider\'s upload quotas to 5 files waiting and 10 MiB a day, takes others, and refuses 0 (docs/operations.md "Limits")', () => {
    expect(loadConfig({}).uploadQuotas).toEqual({ pendingMax: 5, dailyBytes: 10_485_760 });
    expect(loadConfig({ UPLOAD_PENDING_MAX: '2', UPLOAD_DAILY_BYTES: '2097152' }).uploadQuotas).toEqual({
      pendingMax: 2,
      dailyBytes: 2_097_152,
    });
    expect(() => loadConfig({ UPLOAD_PENDING_MAX: '0' })).toThrow(/UPLOAD_PENDING_MAX/);
    expect(() => loadConfig({ UPLOAD_DAILY_BYTES: '10MB' })).toThrow(/UPLOAD_DAILY_BYTES/);
  });

  it('defaults webhook deliveries to 10 s an attempt, retries from 5 s up to 1 h for 3 days, 8 at once (docs/change-feed.md "Retries")', () => {
    expect(loadConfig({}).webhooks).toEqual({
      timeoutMs: 10_000,
      retryBaseMs: 5_000,
      retryMaxMs: 3_600_000,
      giveUpAfterMs: 259_200_000,
      concurrency: 8,
      ports: null,
    });
    expect(loadConfig({ WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_MAX_MS: '50', WEBHOOK_CONCURRENCY: '0' }).webhooks).toMatchObject({
      retryBaseMs: 100,
      retryMaxMs: 100,
      concurrency: 1,
    });
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '-1' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
    expect(loadConfig({ WEBHOOK_PORTS: ' 443, 8443 ' }).webhooks.ports).toEqual([443, 8443]);
    for (const bad of ['22,x', '0', '65536', '443;80']) expect(() => loadConfig({ WEBHOOK_PORTS: bad })).toThrow(/WEBHOOK_PORTS: must be/);
  });

  it('serves metrics only when METRICS_PORT is set, never on PORT (docs/observability.md "Metrics")', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464', HOST: '0.0.0.0' }).metrics).toEqual({ port: 9464, host: '0.0.0.0' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '127.0.0.1', HOST: '0.0.0.0' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
    });
    expect(loadConfig({ METRICS_PORT: '0', PORT: '0' }).metrics).toEqual({ port: 0, host: '127.0.0.1' });
    expect(() => loadConfig({ METRICS_PORT: '3000', PORT: '3000' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT: must be a port number/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it('schedules audit digests only when AUDIT_DIGEST_EVERY is set, from 1 minute to 24 days (docs/DESIGN.md "Scheduled digests")', () => {
    expect(loadConfig({}).auditDigest).toBeNull();
    expect(loadConfig({ AUDIT_DIGEST_EVERY: '1h' }).auditDigest).toEqual({ everyMs: 3_600_000, signingKeyFile: null });
    expect(loadConfig({ AUDIT_DIGEST_EVERY: '15m', AUDIT_SIGNING_KEY_FILE: '/keys/audit.pem' }).auditDigest).toEqual({
      everyMs: 900_000,
      signingKeyFile: '/keys/audit.pem',
    });
    expect(loadConfig({ AUDIT_DIGEST_EVERY: '120000' }).auditDigest?.everyMs).toBe(120_000);
    for (const bad of ['30s', '25d', 'hourly', '-1h'])
      expect(() => loadConfig({ AUDIT_DIGEST_EVERY: bad })).toThrow(/AUDIT_DIGEST_EVERY: must be a period such as 15m/);
    const production = { APP_ENV: 'production', DATA_KEY_FILE: '/keys/service' };
    expect(() => loadConfig({ ...production, AUDIT_DIGEST_EVERY: '1h' })).toThrow(/AUDIT_SIGNING_KEY_FILE: required in production/);
    expect(loadConfig({ ...production, AUDIT_DIGEST_EVERY: '1h', AUDIT_SIGNING_KEY_FILE: '/keys/audit.pem' }).auditDigest?.everyMs).toBe(
      3_600_000,
    );
  });

  it('schedules backups only when BACKUP_EVERY is set, into BACKUP_DIR, on the embedded stores (docs/operations.md "Backups and restore")', () => {
    expect(loadConfig({}).backups).toBeNull();
    expect(loadConfig({ BACKUP_EVERY: '6h', BACKUP_DIR: '/backups' }).backups).toEqual({
      everyMs: 21_600_000,
      keep: 28,
      dir: '/backups',
      signingKeyFile: null,
    });
    expect(loadConfig({ BACKUP_EVERY: '1d', BACKUP_DIR: '/b', BACKUP_KEEP: '7', AUDIT_SIGNING_KEY_FILE: '/k.pem' }).backups).toEqual({
      everyMs: 86_400_000,
      keep: 7,
      dir: '/b',
      signingKeyFile: '/k.pem',
    });
    expect(() => loadConfig({ BACKUP_EVERY: '6h' })).toThrow(/BACKUP_DIR: required with BACKUP_EVERY/);
    expect(() => loadConfig({ BACKUP_EVERY: '10s', BACKUP_DIR: '/b' })).toThrow(/BACKUP_EVERY: must be a period such as 15m/);
    expect(() => loadConfig({ BACKUP_EVERY: '6h', BACKUP_DIR: '/b', BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP: must keep at least 1/);
    expect(() => loadConfig({ BACKUP_EVERY: '6h', BACKUP_DIR: '/b', MONGODB_URL: 'mongodb://m' })).toThrow(/embedded stores only/);
  });

  it('reads the HTTP server bounds', () => {
    const config = loadConfig({
      REQUEST_TIMEOUT_MS: '5000',
      HEADERS_TIMEOUT_MS: '2000',
      CONNECTION_TIMEOUT_MS: '0',
      KEEP_ALIVE_TIMEOUT_MS: '1000',
      MAX_REQUESTS_PER_SOCKET: '10',
      MAX_CONNECTIONS: '50',
    });
    expect(config).toMatchObject({
      requestTimeoutMs: 5000,
      headersTimeoutMs: 2000,
      connectionTimeoutMs: 0,
      keepAliveTimeoutMs: 1000,
      maxRequestsPerSocket: 10,
      maxConnections: 50,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '-5' })).toThrow(/REQUEST_TIMEOUT_MS: Invalid delay/);
    expect(() => loadConfig({ MAX_CONNECTIONS: 'lots' })).toThrow(/MAX_CONNECTIONS: Invalid count/);
  });

  it('reads the limits (0 turns one off), the lists and the proxy setting', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      TRUST_PROXY: '2',
      RATE_LIMIT_IP_PER_MINUTE: '0',
      RATE_LIMIT_TOKEN_PER_MINUTE: '250',
      BLOCKED_IPS: ' 10.0.0.1, ,192.0.2.7 ',
      BLOCKED_USER_AGENTS: 'BadBot/1.0',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      trustProxy: 2,
      rateLimitIpPerMinute: 0,
      rateLimitTokenPerMinute: 250,
      blockedIps: ['10.0.0.1', '192.0.2.7'],
      blockedUserAgents: ['BadBot/1.0'],
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy).toBe('10.0.0.0/8');
  });

  it.each(['-1', 'many', '1.5'])('refuses a rate limit of %j naming the variable', (value) => {
    expect(() => loadConfig({ RATE_LIMIT_IP_PER_MINUTE: value })).toThrow(/RATE_LIMIT_IP_PER_MINUTE: Invalid count/);
  });
});

describe('loadConfig: the uploads page’s sign-in (docs/operations.md "Signing in to the uploads page")', () => {
  const production = { APP_ENV: 'production', DATA_KEY_FILE: '/run/keys/data-key' };
  const external = {
    OIDC_ISSUER_URL: 'https://signin.example.gov.uk',
    OIDC_CLIENT_SECRET: 'secret',
    OIDC_REDIRECT_URL: 'https://trainees.example.gov.uk/uploads/sign-in/callback',
  };

  it('defaults in the sandbox to its own identity provider, the organisation and roles claims, and the token sign-in beside', () => {
    expect(loadConfig({}).pageSignIn).toEqual({
      issuerUrl: null,
      clientId: 'trainee-records-uploads',
      clientSecret: null,
      redirectUrl: null,
      organisationClaim: 'organisation',
      roleClaim: 'roles',
      tokenSignIn: true,
    });
  });

  it('in production never signs in with a token, and takes an https identity provider with its secret and redirect URL', () => {
    expect(loadConfig(production).pageSignIn).toMatchObject({ issuerUrl: null, tokenSignIn: false });
    expect(loadConfig({ ...production, ...external, OIDC_ROLE_CLAIM: 'https://example.gov.uk/roles' }).pageSignIn).toEqual({
      issuerUrl: external.OIDC_ISSUER_URL,
      clientId: 'trainee-records-uploads',
      clientSecret: 'secret',
      redirectUrl: external.OIDC_REDIRECT_URL,
      organisationClaim: 'organisation',
      roleClaim: 'https://example.gov.uk/roles',
      tokenSignIn: false,
    });
  });

  it('names each bad setting: an http issuer in production, a missing secret or redirect URL, a long id, a bad claim name', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return '';
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
    };
    expect(problems({ ...production, ...external, OIDC_ISSUER_URL: 'http://signin.example.gov.uk' })).toMatch(
      /OIDC_ISSUER_URL: must be an https:/,
    );
    expect(problems({ ...production, ...external, OIDC_CLIENT_SECRET: '' })).toMatch(/OIDC_CLIENT_SECRET: required with OIDC_ISSUER_URL/);
    expect(problems({ ...production, ...external, OIDC_REDIRECT_URL: '' })).toMatch(/OIDC_REDIRECT_URL: required with OIDC_ISSUER_URL/);
    expect(problems({ OIDC_ISSUER_URL: 'ftp://x', OIDC_CLIENT_SECRET: 's' })).toMatch(/OIDC_ISSUER_URL: must be an http:\/\/ or https:/);
    expect(problems({ OIDC_CLIENT_ID: 'x'.repeat(2_001) })).toMatch(/OIDC_CLIENT_ID: 1 to 2000 characters/);
    expect(problems({ OIDC_ROLE_CLAIM: 'roles; drop' })).toMatch(/OIDC_ROLE_CLAIM: a claim name/);
    expect(problems({ OIDC_REDIRECT_URL: `https://x/${'a'.repeat(2_000)}` })).toMatch(/OIDC_REDIRECT_URL: must be/);
  });
});

describe('loadConfig: where the uploads page runs (docs/operations.md "Configuration")', () => {
  it('is not on GOV.UK unless PAGES_ON_GOV_UK says so, and refuses a value that is no boolean', () => {
    expect(loadConfig({}).pagesOnGovUk).toBe(false);
    expect(loadConfig({ PAGES_ON_GOV_UK: 'true' }).pagesOnGovUk).toBe(true);
    expect(loadConfig({ PAGES_ON_GOV_UK: 'false' }).pagesOnGovUk).toBe(false);
    expect(() => loadConfig({ PAGES_ON_GOV_UK: 'gov.uk' })).toThrow(/PAGES_ON_GOV_UK: /);
  });
});
