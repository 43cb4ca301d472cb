import { bool, cleanEnv, str, type EnvError, type EnvMissingError } from 'envalid';
import { DEFAULT_SERVED_VERSIONS, ServedVersions } from '@app/trainees/record';
import { SANDBOX_REGISTRY_DEFAULT_DELAY_MS } from '@app/registry';
import { UPLOAD_DAILY_BYTES_DEFAULT, UPLOAD_PENDING_MAX_DEFAULT } from '@app/uploads/decider';
import { count, delayMs, list, listenPort, parseTrustProxy, positiveCount } from './env-values';
import { backupSchedule, parsePeriod, type BackupScheduleConfig } from './periods';
import { pageSignInEnv, pageSignInOf, type PageSignInConfig } from './page-sign-in';

/**
 * Configuration of the API, the projector and the admin CLI, validated once at start (docs/operations.md "Configuration"); each field
 * comes from the variable {@link envSpec} names, with its default and meaning there.
 */
export interface AppConfig {
  port: number;
  dataDir: string;
  appEnv: 'sandbox' | 'production';
  /** `DATA_KEY_FILE`; null in the sandbox selects `<DATA_DIR>/data-key`, made on first start. */
  dataKeyFile: string | null;
  /** False only for the bench's comparison in the sandbox; sealed values are opened either way (docs/DESIGN.md "Personal data"). */
  sealPersonalData: boolean;
  /** False only for the bench's comparison in the sandbox (docs/DESIGN.md "Verifiable history"). */
  hashChain: boolean;
  /** Implemented versions or their aliases (API-FACTS §1.2, §1.3), in the order given; by default `appEnv`'s. */
  apiVersions: readonly string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  eventStoreUrl: string | null;
  /**
   * Null: SQLite. Its `wtimeoutMS` (default 10000 ms, `0`: none) bounds every write's wait for a majority (docs/operations.md
   * "Configuration"); `@app/stores/mongodb` reads it from the string, so the API, the projector and the admin CLI all take it.
   */
  mongodbUrl: string | null;
  /** `external`: the projector process runs the projections and writes wait for its stored checkpoint. */
  projector: 'in-process' | 'external';
  /** Null selects the sandbox registry in the sandbox. */
  registryUrl: string | null;
  registryToken: string | null;
  /** API-FACTS §12.1. */
  registryTrnDelayMs: number;
  /** API-FACTS §12.5. */
  registryAwardDelayMs: number;
  /** Loopback by default; `0.0.0.0` in the Docker image. */
  host: string;
  /** Fastify's `trustProxy`: false (the socket's peer is the client), true, a hop count, or comma-separated addresses or CIDRs. */
  trustProxy: boolean | number | string;
  /** Per fixed 60 s window (API-FACTS §3.1); 0: off. */
  rateLimitIpPerMinute: number;
  rateLimitTokenPerMinute: number;
  /** Answered 403 on `/api…` (API-FACTS §3.2), as are `blockedUserAgents` (exact match). */
  blockedIps: readonly string[];
  blockedUserAgents: readonly string[];
  readyMaxLagSeconds: number;
  /** A slower client is answered 408 and disconnected; 0: none. */
  requestTimeoutMs: number;
  /** At most the request timeout. */
  headersTimeoutMs: number;
  connectionTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxRequestsPerSocket: number;
  maxConnections: number;
  webhooks: WebhookConfig;
  /** docs/operations.md "Limits"; at least 1 each. */
  uploadQuotas: { pendingMax: number; dailyBytes: number };
  /** Never the API's `PORT`; null: no metrics (docs/observability.md "Metrics"). */
  metrics: { port: number; host: string } | null;
  /** Signed by the projector's process (docs/DESIGN.md "Scheduled digests"); `signingKeyFile` null: the sandbox's. Null: no schedule. */
  auditDigest?: { everyMs: number; signingKeyFile: string | null } | null;
  /** Of the embedded stores, by the projector's process (docs/operations.md "Backups and restore"). Null: no schedule. */
  backups?: BackupScheduleConfig | null;
  /** The uploads page's sign-in; absent: the sandbox's (`SANDBOX_PAGE_SIGN_IN`), refused in production. */
  pageSignIn?: PageSignInConfig;
  /** `PAGES_ON_GOV_UK`: the uploads page is served on GOV.UK, so it has GOV.UK's header; absent or false: the generic header. */
  pagesOnGovUk?: boolean;
}

/** docs/change-feed.md "Retries"; the variables in {@link envSpec}. */
export interface WebhookConfig {
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  giveUpAfterMs: number;
  concurrency: number;
  /** Null: 443 in production, any in the sandbox. */
  ports?: readonly number[] | null;
}

/** The message names the setting. */
export class ConfigError extends Error {}

/**
 * Reads and validates the environment; {@link ConfigError} names every bad variable. Stores' URLs are validated here, their reachability
 * when they open.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: { port?: number } = {}): AppConfig {
  const problems: string[] = [];
  const clean = cleanEnv(env, envSpec(defaults.port ?? 3000), {
    reporter: ({ errors }) => {
      for (const [name, err] of Object.entries(errors)) {
        const e = err as EnvError | EnvMissingError;
        problems.push(`${name}: ${e.message}`);
      }
    },
  });
  problems.push(...urlProblems(clean));
  const appEnv = clean.APP_ENV as AppConfig['appEnv'];
  if (appEnv === 'production') problems.push(...productionProblems(clean));
  const apiVersions =
    clean.API_VERSIONS.trim() === ''
      ? DEFAULT_SERVED_VERSIONS[appEnv]
      : clean.API_VERSIONS.split(',')
          .map((v) => v.trim())
          .filter((v) => v !== '');
  try {
    new ServedVersions(apiVersions);
  } catch (err) {
    problems.push(`API_VERSIONS: ${(err as Error).message}`);
  }
  const digestEvery = parsePeriod(clean.AUDIT_DIGEST_EVERY);
  if (typeof digestEvery === 'string') problems.push(`AUDIT_DIGEST_EVERY: ${digestEvery}`);
  const backups = backupSchedule(clean);
  if (typeof backups === 'string') problems.push(backups);
  const metricsPort = metricsPortOf(clean, problems);
  const webhookPorts = parseWebhookPorts(clean.WEBHOOK_PORTS);
  if (typeof webhookPorts === 'string') problems.push(`WEBHOOK_PORTS: ${webhookPorts}`);
  const pageSignIn = pageSignInOf(clean, appEnv);
  if (Array.isArray(pageSignIn)) problems.push(...pageSignIn);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    port: clean.PORT,
    dataDir: clean.DATA_DIR,
    appEnv,
    dataKeyFile: clean.DATA_KEY_FILE.trim() || null,
    sealPersonalData: clean.SEAL_PERSONAL_DATA,
    hashChain: clean.HASH_CHAIN,
    apiVersions,
    logLevel: clean.LOG_LEVEL as AppConfig['logLevel'],
    eventStoreUrl: clean.EVENTSTORE_URL || null,
    mongodbUrl: clean.MONGODB_URL || null,
    projector: clean.PROJECTOR as AppConfig['projector'],
    registryUrl: clean.REGISTRY_URL || null,
    registryToken: clean.REGISTRY_TOKEN || null,
    registryTrnDelayMs: clean.REGISTRY_TRN_DELAY_MS,
    registryAwardDelayMs: clean.REGISTRY_AWARD_DELAY_MS,
    host: clean.HOST,
    trustProxy: parseTrustProxy(clean.TRUST_PROXY),
    rateLimitIpPerMinute: clean.RATE_LIMIT_IP_PER_MINUTE,
    rateLimitTokenPerMinute: clean.RATE_LIMIT_TOKEN_PER_MINUTE,
    blockedIps: list(clean.BLOCKED_IPS),
    blockedUserAgents: list(clean.BLOCKED_USER_AGENTS),
    readyMaxLagSeconds: clean.READY_MAX_LAG_SECONDS,
    requestTimeoutMs: clean.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: clean.HEADERS_TIMEOUT_MS,
    connectionTimeoutMs: clean.CONNECTION_TIMEOUT_MS,
    keepAliveTimeoutMs: clean.KEEP_ALIVE_TIMEOUT_MS,
    maxRequestsPerSocket: clean.MAX_REQUESTS_PER_SOCKET,
    maxConnections: clean.MAX_CONNECTIONS,
    webhooks: {
      timeoutMs: Math.max(1, clean.WEBHOOK_TIMEOUT_MS),
      retryBaseMs: clean.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: Math.max(clean.WEBHOOK_RETRY_BASE_MS, clean.WEBHOOK_RETRY_MAX_MS),
      giveUpAfterMs: clean.WEBHOOK_GIVE_UP_AFTER_MS,
      concurrency: Math.max(1, clean.WEBHOOK_CONCURRENCY),
      ports: typeof webhookPorts === 'string' ? null : webhookPorts,
    },
    uploadQuotas: { pendingMax: clean.UPLOAD_PENDING_MAX, dailyBytes: clean.UPLOAD_DAILY_BYTES },
    metrics: metricsPort === null ? null : { port: metricsPort, host: clean.METRICS_HOST || clean.HOST },
    auditDigest:
      typeof digestEvery === 'number' ? { everyMs: digestEvery, signingKeyFile: clean.AUDIT_SIGNING_KEY_FILE.trim() || null } : null,
    backups: typeof backups === 'string' ? null : backups,
    pageSignIn: pageSignIn as PageSignInConfig,
    pagesOnGovUk: clean.PAGES_ON_GOV_UK,
  };
}

/** Null when unset; no port 0–65535, or the API's own port, adds a problem. */
function metricsPortOf(clean: { METRICS_PORT: string; PORT: number }, problems: string[]): number | null {
  const text = clean.METRICS_PORT.trim();
  const port = text === '' ? null : Number(text);
  if (port !== null && (!/^\d+$/.test(text) || port > 65535)) {
    problems.push(`METRICS_PORT: must be a port number 0–65535, got '${clean.METRICS_PORT}'`);
  } else if (port !== null && port !== 0 && port === clean.PORT) {
    problems.push(`METRICS_PORT: must differ from PORT (${clean.PORT}): metrics are never served on the API's port`);
  }
  return port;
}

/** A bad URL is named with its password hidden. */
function urlProblems(clean: { EVENTSTORE_URL: string; MONGODB_URL: string; REGISTRY_URL: string }): string[] {
  const problems: string[] = [];
  if (clean.EVENTSTORE_URL && !/^esdb(\+discover)?:\/\//.test(clean.EVENTSTORE_URL)) {
    problems.push(`EVENTSTORE_URL: must be an esdb:// or esdb+discover:// connection string, got '${redact(clean.EVENTSTORE_URL)}'`);
  }
  if (clean.MONGODB_URL && !/^mongodb(\+srv)?:\/\//.test(clean.MONGODB_URL)) {
    problems.push(`MONGODB_URL: must be a mongodb:// or mongodb+srv:// connection string, got '${redact(clean.MONGODB_URL)}'`);
  }
  if (clean.REGISTRY_URL && !/^https?:\/\//.test(clean.REGISTRY_URL)) {
    problems.push(`REGISTRY_URL: must be an http:// or https:// URL, got '${redact(clean.REGISTRY_URL)}'`);
  }
  return problems;
}

/** docs/operations.md "The service key": no service key file, personal data in the clear. */
function productionProblems(clean: {
  DATA_KEY_FILE: string;
  SEAL_PERSONAL_DATA: boolean;
  HASH_CHAIN: boolean;
  AUDIT_DIGEST_EVERY: string;
  AUDIT_SIGNING_KEY_FILE: string;
}): string[] {
  const problems: string[] = [];
  if (clean.DATA_KEY_FILE.trim() === '') {
    problems.push('DATA_KEY_FILE: required in production, the file holding the service key (make one with: openssl rand -base64 32)');
  }
  if (!clean.SEAL_PERSONAL_DATA) {
    problems.push('SEAL_PERSONAL_DATA: production always seals personal data (false is for the sandbox bench only)');
  }
  if (!clean.HASH_CHAIN) problems.push('HASH_CHAIN: production always chains the log (false is for the sandbox bench only)');
  if (clean.AUDIT_DIGEST_EVERY.trim() !== '' && clean.AUDIT_SIGNING_KEY_FILE.trim() === '')
    problems.push(
      'AUDIT_SIGNING_KEY_FILE: required in production to sign the digests AUDIT_DIGEST_EVERY schedules (an Ed25519 private key, PEM)',
    );
  return problems;
}

function envSpec(port: number) {
  return {
    PORT: listenPort({ default: port, desc: 'HTTP port (0: any free port)' }),
    DATA_DIR: str({ default: './data', desc: 'directory of the embedded SQLite files' }),
    APP_ENV: str({ choices: ['sandbox', 'production'], default: 'sandbox' }),
    DATA_KEY_FILE: str({ default: '', desc: 'file of the service key, 32 bytes in base64 (required in production)' }),
    SEAL_PERSONAL_DATA: bool({ default: true, desc: 'seal personal data in new events (false: the sandbox bench only)' }),
    HASH_CHAIN: bool({ default: true, desc: 'chain the events of each stream by their hashes (false: the sandbox bench only)' }),
    API_VERSIONS: str({ default: '', desc: 'comma-separated API versions to serve (default: by APP_ENV)' }),
    LOG_LEVEL: str({ choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
    EVENTSTORE_URL: str({ default: '' }),
    MONGODB_URL: str({
      default: '',
      desc: 'mongodb:// connection string of the read models; its wtimeoutMS bounds a write (default 10000)',
    }),
    PROJECTOR: str({ choices: ['in-process', 'external'], default: 'in-process' }),
    REGISTRY_URL: str({ default: '' }),
    REGISTRY_TOKEN: str({ default: '' }),
    REGISTRY_TRN_DELAY_MS: delayMs({
      default: SANDBOX_REGISTRY_DEFAULT_DELAY_MS,
      desc: 'sandbox registry: ms from submission to TRN (0: at once)',
    }),
    REGISTRY_AWARD_DELAY_MS: delayMs({
      default: SANDBOX_REGISTRY_DEFAULT_DELAY_MS,
      desc: 'sandbox registry: ms from recommendation to award (0: at once)',
    }),
    HOST: str({ default: '127.0.0.1', desc: 'listen address (0.0.0.0: every interface)' }),
    TRUST_PROXY: str({ default: 'false', desc: 'proxies trusted for the client address: false, true, a hop count or addresses' }),
    RATE_LIMIT_IP_PER_MINUTE: count({ default: 100, desc: 'requests per 60 s window per client IP on /api (0: off)' }),
    RATE_LIMIT_TOKEN_PER_MINUTE: count({ default: 100, desc: 'requests per 60 s window per token on /api (0: off)' }),
    BLOCKED_IPS: str({ default: '', desc: 'comma-separated client IPs answered 403 on /api' }),
    BLOCKED_USER_AGENTS: str({ default: '', desc: 'comma-separated user agents answered 403 on /api' }),
    READY_MAX_LAG_SECONDS: count({ default: 30, desc: '/readyz: largest projection lag still ready, in seconds' }),
    REQUEST_TIMEOUT_MS: delayMs({ default: 30_000, desc: 'whole-request deadline, headers and body (0: none)' }),
    HEADERS_TIMEOUT_MS: delayMs({ default: 10_000, desc: 'deadline for the request headers' }),
    CONNECTION_TIMEOUT_MS: delayMs({ default: 60_000, desc: 'a socket without traffic this long is closed (0: never)' }),
    KEEP_ALIVE_TIMEOUT_MS: delayMs({ default: 10_000, desc: 'an idle keep-alive socket is closed after this' }),
    MAX_REQUESTS_PER_SOCKET: count({ default: 1000, desc: 'requests on one socket before it closes (0: no limit)' }),
    MAX_CONNECTIONS: count({ default: 1024, desc: 'open connections at most (0: no limit)' }),
    WEBHOOK_TIMEOUT_MS: delayMs({ default: 10_000, desc: 'webhooks: deadline of one delivery attempt' }),
    WEBHOOK_RETRY_BASE_MS: delayMs({ default: 5_000, desc: 'webhooks: wait after a first failure, doubling after each' }),
    WEBHOOK_RETRY_MAX_MS: delayMs({ default: 3_600_000, desc: 'webhooks: longest wait between attempts' }),
    WEBHOOK_GIVE_UP_AFTER_MS: delayMs({ default: 259_200_000, desc: 'webhooks: failing this long disables the endpoint (3 days)' }),
    WEBHOOK_CONCURRENCY: count({ default: 8, desc: 'webhooks: attempts in flight at once' }),
    WEBHOOK_PORTS: str({
      default: '',
      desc: 'webhooks: comma-separated ports targets may use (default: 443 in production, any in the sandbox)',
    }),
    UPLOAD_PENDING_MAX: positiveCount({ default: UPLOAD_PENDING_MAX_DEFAULT, desc: 'uploads of a provider waiting for their check' }),
    UPLOAD_DAILY_BYTES: positiveCount({ default: UPLOAD_DAILY_BYTES_DEFAULT, desc: 'bytes of files a provider may upload in a UTC day' }),
    METRICS_PORT: str({ default: '', desc: 'port of the Prometheus metrics listener (unset: off; never PORT)' }),
    METRICS_HOST: str({ default: '', desc: 'listen address of the metrics listener (default: HOST)' }),
    AUDIT_DIGEST_EVERY: str({ default: '', desc: 'sign an audit digest this often, e.g. 1h (unset: never)' }),
    AUDIT_SIGNING_KEY_FILE: str({
      default: '',
      desc: 'the Ed25519 private key (PEM) digests are signed with (required in production to sign)',
    }),
    BACKUP_EVERY: str({
      default: '',
      desc: 'back up the embedded stores this often, e.g. 6h, from the process that projects (unset: never)',
    }),
    BACKUP_KEEP: count({ default: 28, desc: 'scheduled backups kept, the newest' }),
    BACKUP_DIR: str({ default: '', desc: 'where backups and the erasure ledger go' }),
    ...pageSignInEnv(),
    PAGES_ON_GOV_UK: bool({
      default: false,
      desc: 'the uploads page runs on GOV.UK: GOV.UK’s header with its crown (false: the generic one)',
    }),
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** A connection string without its password. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}

/** Comma-separated ports 1–65535, null when empty, or a sentence saying what is wrong. */
export function parseWebhookPorts(text: string | undefined): readonly number[] | null | string {
  const items = (text ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (items.length === 0) return null;
  const bad = items.find((v) => !/^\d{1,5}$/.test(v) || Number(v) < 1 || Number(v) > 65535);
  return bad === undefined ? items.map(Number) : `must be comma-separated ports 1–65535, got '${bad.slice(0, 20)}'`;
}
