import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../apps/api/src/create-app';
import { ProviderOperations } from '@app/providers/write';
import { EVENT_STORE, STORED_LOG, type EventStore, type StoredLog } from '@app/event-sourcing';
import { PROVIDER_READ_MODEL } from '@app/providers/read';
import { SCHOOL_DIRECTORY, type SchoolDirectory } from '@app/schools';
import { TRAINEE_READ_MODEL } from '@app/trainees/read';
import type { ReadModelStore } from '@app/runtime/projector';
import { Projections } from '../../apps/api/src/composition/projections';
import type { AppConfig } from '@app/runtime/process';
import { DEFAULT_SERVED_VERSIONS } from '@app/trainees/record';
import { UPLOAD_DAILY_BYTES_DEFAULT, UPLOAD_PENDING_MAX_DEFAULT } from '@app/uploads/decider';
import { createLogger } from '../../apps/api/src/observability/logger';
import { locksHeldBy, openDatabasesOf } from './beside';
import { checkAgainstServedDocument, checkRequestAgainstServedDocument, useServedDocuments } from './served-document';
import { OpenApiDocuments } from '../../apps/api/src/api-docs/openapi-documents';
import type { Logger } from 'pino';

/** The HTTP server bounds a test may set (see {@link RunningApi.start}). */
type ServerBound =
  'requestTimeoutMs' | 'headersTimeoutMs' | 'connectionTimeoutMs' | 'keepAliveTimeoutMs' | 'maxRequestsPerSocket' | 'maxConnections';

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** What a test reaches of a running API's stores (see {@link RunningApi.infra}). */
export interface StoresOfApi {
  eventStore: EventStore;
  /** The log as stored (sealed values sealed). */
  storedLog: StoredLog;
  readModel: ReadModelStore;
  schools: SchoolDirectory;
  providers: ProviderOperations;
  projector: Projections['projector'];
  catchUp(): Promise<void>;
}

/** A running API on a free loopback port over a temporary data dir, for end-to-end tests. */
export class RunningApi {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly baseUrl: string,
    readonly dataDir: string,
    private readonly ownsDir: boolean,
  ) {}

  /**
   * Starts the API (real HTTP) with `APP_ENV` sandbox unless told otherwise. The sandbox registry
   * issues TRNs an hour after submission (in effect never) and awards at once, unless
   * `registryTrnDelayMs` / `registryAwardDelayMs` (ms) say otherwise.
   */
  static async start(
    options: {
      appEnv?: AppConfig['appEnv'];
      apiVersions?: readonly string[];
      dataDir?: string;
      projector?: AppConfig['projector'];
      registryUrl?: string;
      registryTrnDelayMs?: number;
      registryAwardDelayMs?: number;
      /** Rate limits (requests per 60 s window); 0 (the default here): off. */
      rateLimitIpPerMinute?: number;
      rateLimitTokenPerMinute?: number;
      blockedIps?: readonly string[];
      blockedUserAgents?: readonly string[];
      readyMaxLagSeconds?: number;
      /** HTTP server bounds (docs/operations.md "Configuration"); the production defaults unless given. */
      server?: Partial<Pick<AppConfig, ServerBound>>;
      /** The API's logger; by default a silent one. */
      logger?: Logger;
      /** Webhook delivery settings; short retries by default here. */
      webhooks?: Partial<AppConfig['webhooks']>;
      /** The metrics listener (docs/observability.md); off by default. */
      metrics?: AppConfig['metrics'];
      /** Scheduled audit digests (`AUDIT_DIGEST_EVERY`); off by default. */
      auditDigest?: AppConfig['auditDigest'];
      /** Scheduled backups (`BACKUP_EVERY`, `BACKUP_DIR`); off by default. */
      backups?: AppConfig['backups'];
      /** The providers' upload quotas (docs/operations.md "Limits"); the defaults unless given. */
      uploadQuotas?: Partial<AppConfig['uploadQuotas']>;
      /** `PAGES_ON_GOV_UK`: the uploads page with GOV.UK's header; false (the default) the generic one. */
      pagesOnGovUk?: boolean;
    } = {},
  ): Promise<RunningApi> {
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'trainee-records-e2e-'));
    const config: AppConfig = {
      port: 0,
      dataDir,
      appEnv: options.appEnv ?? 'sandbox',
      // Production needs its key file (docs/operations.md "The service key"); the sandbox makes one in the data dir.
      dataKeyFile: options.appEnv === 'production' ? productionKeyFile(dataDir) : null,
      sealPersonalData: true,
      hashChain: true,
      apiVersions: options.apiVersions ?? DEFAULT_SERVED_VERSIONS[options.appEnv ?? 'sandbox'],
      logLevel: 'silent',
      eventStoreUrl: null,
      mongodbUrl: null,
      projector: options.projector ?? 'in-process',
      registryUrl: options.registryUrl ?? null,
      registryToken: null,
      // The sandbox registry issues TRNs only when a test asks for it (registryTrnDelayMs: 0).
      registryTrnDelayMs: options.registryTrnDelayMs ?? 3_600_000,
      registryAwardDelayMs: options.registryAwardDelayMs ?? 0,
      host: '127.0.0.1',
      trustProxy: false,
      rateLimitIpPerMinute: options.rateLimitIpPerMinute ?? 0,
      rateLimitTokenPerMinute: options.rateLimitTokenPerMinute ?? 0,
      blockedIps: options.blockedIps ?? [],
      blockedUserAgents: options.blockedUserAgents ?? [],
      readyMaxLagSeconds: options.readyMaxLagSeconds ?? 30,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      connectionTimeoutMs: 60_000,
      keepAliveTimeoutMs: 10_000,
      maxRequestsPerSocket: 1000,
      maxConnections: 1024,
      webhooks: { timeoutMs: 2_000, retryBaseMs: 50, retryMaxMs: 1_000, giveUpAfterMs: 259_200_000, concurrency: 4, ...options.webhooks },
      metrics: options.metrics ?? null,
      auditDigest: options.auditDigest ?? null,
      backups: options.backups ?? null,
      uploadQuotas: { pendingMax: UPLOAD_PENDING_MAX_DEFAULT, dailyBytes: UPLOAD_DAILY_BYTES_DEFAULT, ...options.uploadQuotas },
      pagesOnGovUk: options.pagesOnGovUk ?? false,
      ...options.server,
    };
    const app = await createApp(config, options.logger ?? createLogger('silent'));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const baseUrl = `http://127.0.0.1:${port}`;
    const documents = app.get(OpenApiDocuments);
    useServedDocuments(baseUrl, (segment) => documents.json(segment) as Record<string, unknown> | undefined);
    return new RunningApi(app, baseUrl, dataDir, options.dataDir === undefined);
  }

  /**
   * The running API's stores and projections, for a test's setup and its checks of what was stored:
   * the event store, the log as stored, the read store, the schools directory, provider operations (providers and
   * tokens as the admin CLI makes them), the in-process projector (null when external) and catch-up.
   */
  get infra(): StoresOfApi {
    const eventStore = this.app.get<EventStore>(EVENT_STORE);
    const readModel = this.app.get<ReadModelStore>(TRAINEE_READ_MODEL);
    const projections = this.app.get(Projections);
    return {
      eventStore,
      storedLog: this.app.get<StoredLog>(STORED_LOG),
      readModel,
      schools: this.app.get<SchoolDirectory>(SCHOOL_DIRECTORY),
      providers: new ProviderOperations(eventStore, this.app.get(PROVIDER_READ_MODEL)),
      projector: projections.projector,
      catchUp: () => projections.catchUp(),
    };
  }

  /** Registers a provider (if new) and returns a fresh token for it. */
  async providerToken(ukprn: string, name = `Provider ${ukprn}`): Promise<string> {
    if (!(await this.infra.readModel.getProvider(ukprn))) await this.infra.providers.addProvider(ukprn, name);
    const issued = await this.infra.providers.issueToken(ukprn, 'sandbox');
    await this.infra.catchUp();
    return issued.token;
  }

  /**
   * Sends a request; `body` is JSON-encoded unless it is a string or bytes (sent as they are). The
   * response is checked against the OpenAPI document the service serves
   * ({@link checkAgainstServedDocument}), and so is the body of a request it answered 2xx
   * ({@link checkRequestAgainstServedDocument}).
   */
  async request(
    method: string,
    path: string,
    token: string | null,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse> {
    const h: Record<string, string> = { ...headers };
    if (token !== null) h.authorization = `Bearer ${token}`;
    let payload: string | Buffer | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      h['content-type'] = h['content-type'] ?? 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    await checkAgainstServedDocument(this.baseUrl, method, path, { status: res.status, headers: res.headers, text });
    // Bytes (a file upload) are no JSON body for the document's request schemas to check.
    await checkRequestAgainstServedDocument(this.baseUrl, method, path, typeof payload === 'string' ? payload : undefined, res.status);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  /** Stops the API and removes the data dir it created. */
  /**
   * Closes the API and removes its data dir when the harness made it. Throws first when this
   * process holds no lock on one of the data dir's databases it has open: something in the test's
   * process opened and closed a descriptor of that file outside SQLite (a file read: use
   * test/support/data-dir-files.ts), which drops the API's locks (docs/operations.md "Commands
   * beside the running service").
   */
  async close(): Promise<void> {
    const unlocked = openDatabasesOf(process.pid).filter(
      (file) => file.startsWith(`${this.dataDir}/`) && locksHeldBy(process.pid, file) === 0,
    );
    await this.app.close();
    if (this.ownsDir) rmSync(this.dataDir, { recursive: true, force: true });
    if (unlocked.length > 0) {
      throw new Error(
        `the API's SQLite locks on ${unlocked.join(', ')} were dropped by the test's process: read data files in a child process`,
      );
    }
  }
}

/** Schools the end-to-end tests load into the directory (URN → name, town, postcode). */
export const TEST_SCHOOLS = [
  { urn: '100001', name: 'Oak Primary School', town: 'Guildford', postcode: 'GU1 6FR' },
  { urn: '100038', name: 'Ash Academy', town: 'Leeds', postcode: 'LS1 1DX' },
];

/** A service key file for a production API over `dataDir`: 32 random bytes in base64, made once. */
function productionKeyFile(dataDir: string): string {
  const file = join(dataDir, 'production-data-key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  return file;
}
