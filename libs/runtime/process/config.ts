import { bool, cleanEnv, str, type EnvError, type EnvMissingError } from 'envalid';
import { DEFAULT_SERVED_VERSIONS, ServedVersions } from '@app/trainees/record';
import { SANDBOX_REGISTRY_DEFAULT_DELAY_MS } from '@app/registry';
import { UPLOAD_DAILY_BYTES_DEFAULT, UPLOAD_PENDING_MAX_DEFAULT } from '@app/uploads/decider';
import { count, delayMs, list, listenPort, parseTrustProxy, positiveCount } from './env-values';
import { backupSchedule, parsePeriod, type BackupScheduleConfig } from './periods';

/** Configuration of the API, the projector and the admin CLI (docs/operations.md "Configuration"), validated once at start. */
export interface AppConfig {
  port: number;
  dataDir: string;
  appEnv: 'sandbox' | 'production';
  /**
   * The file holding the service key (`DATA_KEY_FILE`; docs/operations.md "The service key"):
   * required in production; null in the sandbox selects `<DATA_DIR>/data-key`, made on first start.
   */
  dataKeyFile: string | null;
  /**
   * Whether new events hold the trainees' personal data sealed with their data keys
   * (`SEAL_PERSONAL_DATA`, default true; docs/DESIGN.md "Personal data"). False is for the bench's
   * comparison in the sandbox only: production refuses it. Sealed values are opened either way.
   */
  sealPersonalData: boolean;
  /**
   * Whether the embedded event store chains each stream's events (`HASH_CHAIN`, default true;
   * docs/DESIGN.md "Verifiable history"). False is for the bench's comparison in the sandbox only:
   * production refuses it.
   */
  hashChain: boolean;
  /**
   * The API version names served (docs/reference/API-FACTS.md §1.2): implemented versions or
   * their aliases (`v2025.0-rc`, §1.3), in the order given; by default the versions of `appEnv`.
   */
  apiVersions: readonly string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  eventStoreUrl: string | null;
  mongodbUrl: string | null;
  /**
   * `in-process`: the API runs the projectors itself (the embedded default); `external`: a separate
   * projector process does (apps/projector), and writes wait for the stored checkpoint.
   */
  projector: 'in-process' | 'external';
  /** The registry's base URL (HTTP adapter); null selects the sandbox registry in the sandbox. */
  registryUrl: string | null;
  registryToken: string | null;
  /**
   * Sandbox registry (`REGISTRY_TRN_DELAY_MS`): ms from a trainee's submission to its TRN; default
   * 60 000, as the real registry integration first polls one minute after submission
   * (docs/reference/API-FACTS.md §12.1); 0: at once.
   */
  registryTrnDelayMs: number;
  /**
   * Sandbox registry (`REGISTRY_AWARD_DELAY_MS`): ms from a recommendation to the award
   * (docs/reference/API-FACTS.md §12.5); default 60 000; 0: at once.
   */
  registryAwardDelayMs: number;
  /** Listen address (`HOST`): loopback by default on the embedded default, `0.0.0.0` in the Docker image. */
  host: string;
  /**
   * Which proxies to trust for the client address (`TRUST_PROXY`, Fastify's `trustProxy`): false
   * (default: the socket's peer is the client), true (every hop), a hop count, or a comma-separated
   * list of addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  /**
   * Requests per fixed 60-second window per client IP on `/api…` (`RATE_LIMIT_IP_PER_MINUTE`,
   * default 100, docs/reference/API-FACTS.md §3.1); 0: off.
   */
  rateLimitIpPerMinute: number;
  /** Requests per fixed 60-second window per bearer token on `/api…` (`RATE_LIMIT_TOKEN_PER_MINUTE`, default 100); 0: off. */
  rateLimitTokenPerMinute: number;
  /** Client IPs refused with 403 on `/api…` (`BLOCKED_IPS`, comma-separated; docs/reference/API-FACTS.md §3.2). */
  blockedIps: readonly string[];
  /**
   * User agents refused with 403 on `/api…` (`BLOCKED_USER_AGENTS`, comma-separated, exact match;
   * docs/reference/API-FACTS.md §3.2).
   */
  blockedUserAgents: readonly string[];
  /** `/readyz` says not ready when the projections are behind by more than this many seconds (`READY_MAX_LAG_SECONDS`, default 30). */
  readyMaxLagSeconds: number;
  /**
   * Whole-request deadline in ms, headers and body (`REQUEST_TIMEOUT_MS`, default 30 000): a slower
   * client is answered 408 and disconnected; 0: none.
   */
  requestTimeoutMs: number;
  /** Deadline for the request headers in ms (`HEADERS_TIMEOUT_MS`, default 10 000; at most the request timeout). */
  headersTimeoutMs: number;
  /** A socket with no traffic for this many ms is closed (`CONNECTION_TIMEOUT_MS`, default 60 000); 0: never. */
  connectionTimeoutMs: number;
  /** An idle keep-alive socket is closed after this many ms (`KEEP_ALIVE_TIMEOUT_MS`, default 10 000). */
  keepAliveTimeoutMs: number;
  /** Requests served on one socket before it is closed (`MAX_REQUESTS_PER_SOCKET`, default 1 000); 0: no limit. */
  maxRequestsPerSocket: number;
  /** Open connections at most; more are refused at once (`MAX_CONNECTIONS`, default 1 024); 0: no limit. */
  maxConnections: number;
  /** Webhook deliveries (docs/change-feed.md "Retries"); see {@link WebhookConfig}. */
  webhooks: WebhookConfig;
  /**
   * Each provider's upload quotas (docs/operations.md "Limits"): uploads waiting for their check
   * (`UPLOAD_PENDING_MAX`, default 5) and bytes of files received in a UTC day (`UPLOAD_DAILY_BYTES`,
   * default 10 485 760); at least 1 each.
   */
  uploadQuotas: { pendingMax: number; dailyBytes: number };
  /**
   * The metrics listener's port (`METRICS_PORT`; unset: no metrics; 0: any free port), never the
   * API's `PORT`, on `METRICS_HOST` (default `HOST`) (docs/observability.md "Metrics").
   */
  metrics: { port: number; host: string } | null;
  /**
   * Digests signed on a schedule by the process that runs the projector (docs/DESIGN.md "Scheduled
   * digests"): every `everyMs` (`AUDIT_DIGEST_EVERY`, e.g. `1h`; unset: none), with the key of
   * `signingKeyFile` (`AUDIT_SIGNING_KEY_FILE`; null: the sandbox's `<DATA_DIR>/audit-signing-key.pem`,
   * refused in production). Absent or null: no schedule.
   */
  auditDigest?: { everyMs: number; signingKeyFile: string | null } | null;
  /**
   * Backups of the embedded stores taken on a schedule by the projector process (docs/operations.md
   * "Backups and restore"): every `everyMs` (`BACKUP_EVERY`, e.g. `6h`) into `dir` (`BACKUP_DIR`),
   * the newest `keep` kept (`BACKUP_KEEP`, default 28), their heads signed with `signingKeyFile`
   * (`AUDIT_SIGNING_KEY_FILE`) where it is set. Absent or null: no schedule.
   */
  backups?: BackupScheduleConfig | null;
}

/** How webhooks are delivered (docs/change-feed.md "Webhooks", "Retries"). */
export interface WebhookConfig {
  /** A whole attempt's deadline in ms (`WEBHOOK_TIMEOUT_MS`, default 10 000). */
  timeoutMs: number;
  /** The wait after a first failed attempt in ms, doubling after each (`WEBHOOK_RETRY_BASE_MS`, default 5 000). */
  retryBaseMs: number;
  /** The longest wait between attempts in ms (`WEBHOOK_RETRY_MAX_MS`, default 3 600 000). */
  retryMaxMs: number;
  /** Failures for this long (ms) disable the endpoint (`WEBHOOK_GIVE_UP_AFTER_MS`, default 259 200 000: 3 days). */
  giveUpAfterMs: number;
  /** Attempts in flight at once (`WEBHOOK_CONCURRENCY`, default 8, at least 1). */
  concurrency: number;
  /** The ports targets may use (`WEBHOOK_PORTS`); null: the default of `webhookPorts` (443 in production, any in the sandbox). */
  ports?: readonly number[] | null;
}

/** Raised when the environment holds an invalid or unsupported setting; the message says which. */
export class ConfigError extends Error {}

/**
 * Reads and validates the environment. Throws {@link ConfigError} naming every bad variable.
 * `REGISTRY_TRN_DELAY_MS` and `REGISTRY_AWARD_DELAY_MS` must be whole numbers of ms from 0 to
 * 2147483647 (default 60 000 each; 0 keeps the sandbox registry answering at once).
 * EventStoreDB and MongoDB are selected by `EVENTSTORE_URL` / `MONGODB_URL` (validated here;
 * reachability is checked when the stores open). `PROJECTOR=external` leaves the projections to a
 * projector process (apps/projector) on the same stores.
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
  };
}

/**
 * `METRICS_PORT` as a port number, or null when unset (docs/observability.md); a value that is no
 * port 0–65535, or the API's own port, adds its problem to `problems`.
 */
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

/** What is wrong with the URLs given: each must be of its kind (a bad one is named, its password hidden). */
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

/** What production refuses (docs/operations.md "The service key"): no service key file, personal data in the clear. */
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

/** The variables read by {@link loadConfig}, their defaults and checks. */
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
    MONGODB_URL: str({ default: '' }),
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
    BACKUP_EVERY: str({ default: '', desc: 'back up the embedded stores this often, e.g. 6h, from the projector process (unset: never)' }),
    BACKUP_KEEP: count({ default: 28, desc: 'scheduled backups kept, the newest' }),
    BACKUP_DIR: str({ default: '', desc: 'where backups and the erasure ledger go' }),
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** A connection string without its password. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}

/**
 * `WEBHOOK_PORTS`: comma-separated TCP ports 1–65535, or null when empty; a sentence saying what is
 * wrong when it is not such a list.
 */
export function parseWebhookPorts(text: string | undefined): readonly number[] | null | string {
  const items = (text ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (items.length === 0) return null;
  const bad = items.find((v) => !/^\d{1,5}$/.test(v) || Number(v) < 1 || Number(v) > 65535);
  return bad === undefined ? items.map(Number) : `must be comma-separated ports 1–65535, got '${bad.slice(0, 20)}'`;
}
