import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { OpenApiDocuments } from './api-docs/openapi-documents';
import { serveApiDocsPage } from './api-docs/api-docs-page';
import { VersionRegistry } from './composition/versions';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { ApiAuthenticator } from './auth/api.guard';
import { Idempotency, registerIdempotencyHook } from './idempotency/idempotency';
import type { AppConfig, ProcessMetrics } from '@app/runtime/process';
import type { Stores } from '@app/composition';
import { createLogger, PinoNestLogger } from './observability/logger';
import { registerAdmission } from './admission/admission';
import { authenticateOnRequest } from './admission/authenticate-early';
import { closeAfterUnreadBody, limitConnections, serverOptions } from './admission/server-bounds';
import { addStrictTransportSecurity } from './admission/transport-security';
import { METRICS, STORES } from './composition/tokens';
import { StorageFaults } from './composition/storage-faults';
import { httpMetricsRecorder } from './observability/http-metrics';
import { parseJsonBody } from './bodies/json-body';
import { refuseBodiesNotFiles } from './bodies/file-body';
import { BODY_MAX_BYTES } from '@app/trainees/record';
import { UPLOAD_BYTES_MAX } from '@app/uploads/decider';
import { serveGovukAssets } from './uploads-page/govuk-assets';
import { UploadsPage } from './uploads-page/uploads-page';

/** Node's limit on a request's line and headers together. */
const PATH_PARAM_MAX_CHARS = 16 * 1024;

/** The API (Fastify adapter), ready to `listen`: for `main.ts` and the end-to-end tests. */
export async function createApp(config: AppConfig, logger: Logger = createLogger(config.logLevel)): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    // Larger answers 413 in the error shape, while it is read (docs/DESIGN.md ruling 14).
    bodyLimit: BODY_MAX_BYTES,
    ...serverOptions(config),
    trustProxy: config.trustProxy,
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    // Node refuses a request line and headers over 16 KiB (431), so the router never answers 414 in its own shape: an id of any length
    // is answered as an unknown id (docs/operations.md "Limits").
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: true, maxParamLength: PATH_PARAM_MAX_CHARS },
    // Tolerated, as by the reference (API-FACTS §1.9).
    rewriteUrl: (req: IncomingMessage) => stripJsonSuffix(req.url ?? '/'),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, logger), adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    // Every body goes through the one parser below, with its bounds.
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  limitConnections(fastify.server, config);
  // First of the onRequest hooks, so every answer carries it, refusals included.
  addStrictTransportSecurity(fastify, config);
  const metrics = app.get<ProcessMetrics | null>(METRICS)?.metrics;
  const recordMetrics = metrics ? httpMetricsRecorder(metrics) : null;
  // onRequest, in this order: blocklists and rate limits, then the token (API-FACTS §2.8, §3.3).
  const rateLimited = metrics?.counter('trainee_records_http_rate_limited_total');
  await registerAdmission(fastify, {
    config,
    // Counted beside the read models where every replica shares them (`Stores.windowCounter`).
    counter: await app.get<Stores>(STORES).windowCounter(),
    logger,
    onRateLimited: rateLimited && ((limit) => rateLimited.inc({ limit })),
  });
  authenticateOnRequest(fastify, app.get(ApiAuthenticator));
  closeAfterUnreadBody(fastify);

  registerBodyParsers(fastify);
  // One onResponse hook: the metrics, a write stored (a storage fault is over), then the log line, with the path only: a query string may
  // hold a token or personal data (docs/operations.md "Observing it").
  const storageFaults = app.get(StorageFaults);
  fastify.addHook('onResponse', (request, reply, done) => {
    recordMetrics?.(request, reply);
    if (reply.statusCode < 300 && WRITES.has(request.method) && request.url.startsWith('/api/')) storageFaults.writeSucceeded();
    const path = request.url.split('?')[0];
    logger.info(
      { reqId: request.id, method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
    done();
  });

  registerIdempotencyHook(fastify, app.get(Idempotency));
  const stores = app.get<Stores>(STORES);
  app.useGlobalFilters(new ApiExceptionFilter(app.get(ApiAuthenticator), logger, storageFaults, (error) => stores.unavailable(error)));
  app.get(OpenApiDocuments).build(app);
  serveApiDocsPage(app, app.get(VersionRegistry));
  await serveGovukAssets(fastify);
  await app.get(UploadsPage).serve(fastify);
  return app;
}

/**
 * Any body read as JSON with its bounds (docs/DESIGN.md ruling 4), a `text/csv` file as bytes up to one past the upload's bound (so it
 * names the bound), and 415 before the body for a route that takes a file and is sent anything else.
 */
function registerBodyParsers(fastify: FastifyInstance): void {
  // Providers' systems do not always send `Content-Type: application/json`: read any body as JSON. Its errors reach the exception filter.
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(text));
    } catch (err) {
      const e = err as Error & { statusCode?: number };
      e.statusCode = 400;
      done(e, undefined);
    }
  });
  fastify.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: UPLOAD_BYTES_MAX + 1 }, (_req, body, done) => done(null, body));
  refuseBodiesNotFiles(fastify);
}

/** The methods of the API's writes. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/api/v2025.0/trainees.json?x=1` → `/api/v2025.0/trainees?x=1`; other URLs unchanged. */
export function stripJsonSuffix(url: string): string {
  return url.startsWith('/api/') ? url.replace(/\.json(?=$|\?)/, '') : url;
}
