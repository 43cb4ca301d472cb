/**
 * The uploads page at `/uploads` for providers' staff (docs/DESIGN.md "The uploads page"): server-rendered GOV.UK pages, forms posted
 * and redirected, through the API's upload operations, and the provider's trainees read from the API's read model, in a Fastify scope
 * of its own outside the API's documents.
 */
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { PAGE_SESSION_STORE, type PageSessionStore } from '@app/runtime/page-sessions';
import { PROVIDER_READ_MODEL, type ProviderReadModel } from '@app/providers/read';
import { TIMELINE_SOURCE, TRAINEE_READ_MODEL, type TimelineSource, type TraineeReadModel } from '@app/trainees/read';
import { APP_CONFIG, SANDBOX_PAGE_SIGN_IN, type AppConfig, type PageSignInConfig } from '@app/runtime/process';
import { fileTooLarge } from '@app/uploads/csv';
import { UPLOAD_BYTES_MAX } from '@app/uploads/decider';
import { ApiAuthenticator } from '../auth/api.guard';
import { VersionRegistry } from '../composition/versions';
import { STORAGE_RETRY_AFTER_SECONDS, StorageFaults } from '../composition/storage-faults';
import { LOGGER } from '../composition/tokens';
import { Uploads } from '../uploads/uploads';
import { framedPage, PAGE_CSP } from './layout';
import { MULTIPART_BYTES_MAX, sendPage, signedIn, URLENCODED_BYTES_MAX, type PageContext } from './page-context';
import { PageSessions } from './page-sessions';
import { messagePage } from './start-views';
import { guideRoutes } from './guide-routes';
import { sessionRoutes, startPageFor } from './session-routes';
import { journeyOf } from './upload-journeys';
import { uploadRoutes } from './upload-routes';
import { traineeRoutes } from './trainee-routes';
import { PersonSignIn } from './person-sign-in';
import { SANDBOX_CLIENT_SECRET, SandboxIdentity, serveSandboxIdentity } from './sandbox-identity';
import { signInRoutes } from './sign-in-routes';
import { DEMO_PROVIDER } from '../sandbox';

/** 413 as the start page's error summary (its journey's); a storage fault 503 with `Retry-After`; anything else without its details. */
async function errorPage(
  ctx: PageContext,
  err: Error & { statusCode?: number },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const status = err.statusCode ?? 500;
  if (status === 413) {
    const who = await signedIn(ctx, request);
    if (who) {
      const errors = [{ message: fileTooLarge(UPLOAD_BYTES_MAX).message, field: 'file' }];
      return startPageFor(ctx, who, reply, 413, errors, journeyOf(request.url));
    }
  }
  if (status < 500) return sendPage(reply, status, messagePage('There is a problem with the form', 'The form sent could not be read.'));
  if (ctx.storageFaults.noted(err)) {
    void reply.header('retry-after', String(STORAGE_RETRY_AFTER_SECONDS));
    return sendPage(reply, 503, messagePage('Sorry, the service is unavailable', 'Try again later.'));
  }
  // The error's name only: a message may quote what was sent.
  ctx.logger.error({ reqId: request.id, error: err.name }, 'uploads page failed');
  return sendPage(reply, 500, messagePage('Sorry, there is a problem with the service', 'Try again later.'));
}

/**
 * The page's routes over the API's upload operations (`Uploads`), its sessions and their CSRF tokens (`PageSessions`), and the token's
 * authentication. Every answer `Cache-Control: no-store` (the pages and files hold personal data), the page CSP, `nosniff`,
 * `no-referrer`, `DENY` framing; every page with GOV.UK's header when `PAGES_ON_GOV_UK`, else the generic header. The sessions'
 * sweep stops, and their store closes, at shutdown.
 */
@Injectable()
export class UploadsPage implements OnApplicationShutdown {
  private readonly ctx: PageContext;
  private readonly signIn: PageSignInConfig;
  private readonly host: string;
  private readonly withOwnIdentity: boolean;
  private readonly onGovUk: boolean;
  private fastify: FastifyInstance | null = null;
  private person: PersonSignIn | null = null;
  private identity: SandboxIdentity | null = null;

  constructor(
    uploads: Uploads,
    authenticator: ApiAuthenticator,
    versions: VersionRegistry,
    storageFaults: StorageFaults,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'appEnv' | 'host' | 'pageSignIn' | 'pagesOnGovUk'>,
    @Inject(LOGGER) logger: Logger,
    @Inject(PAGE_SESSION_STORE) sessionStore: PageSessionStore,
    @Inject(PROVIDER_READ_MODEL) providers: ProviderReadModel,
    @Inject(TRAINEE_READ_MODEL) trainees: TraineeReadModel,
    @Inject(TIMELINE_SOURCE) timeline: TimelineSource,
  ) {
    const sessions = new PageSessions(sessionStore);
    sessions.startSweeping((err) => logger.warn({ error: (err as Error).name }, 'uploads page sessions not swept'));
    const sandbox = config.appEnv === 'sandbox';
    this.signIn = config.pageSignIn ?? { ...SANDBOX_PAGE_SIGN_IN, tokenSignIn: sandbox };
    this.host = config.host;
    this.onGovUk = config.pagesOnGovUk ?? false;
    this.withOwnIdentity = sandbox && this.signIn.issuerUrl === null;
    const secure = !sandbox || (this.signIn.redirectUrl?.startsWith('https:') ?? false);
    const personSignIn = () => this.personSignIn();
    this.ctx = {
      uploads,
      authenticator,
      version: versions.latest,
      sessions,
      storageFaults,
      secure,
      logger,
      personSignIn,
      tokenSignIn: this.signIn.tokenSignIn,
      providers,
      trainees,
      timeline,
    };
  }

  /** The API's own address: the redirect URL's origin when set, else where it listens (any address: `localhost`). */
  private origin(): string {
    if (this.signIn.redirectUrl) return new URL(this.signIn.redirectUrl).origin;
    const address = this.fastify?.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const host = ['0.0.0.0', '::', ''].includes(this.host) ? 'localhost' : this.host.includes(':') ? `[${this.host}]` : this.host;
    return `http://${host}:${port}`;
  }

  /** Made at the first sign-in, once the API listens; null when none is set up. */
  private personSignIn(): PersonSignIn | null {
    if (this.person) return this.person;
    const redirectUrl = this.signIn.redirectUrl ?? `${this.origin()}/uploads/sign-in/callback`;
    const claims = { organisationClaim: this.signIn.organisationClaim, roleClaim: this.signIn.roleClaim };
    if (this.signIn.issuerUrl !== null) {
      const target = { issuer: this.signIn.issuerUrl, clientId: this.signIn.clientId, clientSecret: this.signIn.clientSecret ?? '' };
      this.person = new PersonSignIn({ ...target, redirectUrl, insecure: false }, claims);
    } else if (this.withOwnIdentity) {
      const identity = this.sandboxIdentity();
      const target = { issuer: identity.issuer, clientId: this.signIn.clientId, clientSecret: SANDBOX_CLIENT_SECRET };
      this.person = new PersonSignIn({ ...target, redirectUrl, insecure: true }, claims);
    }
    return this.person;
  }

  private sandboxIdentity(): SandboxIdentity {
    this.identity ??= new SandboxIdentity(
      {
        origin: this.origin(),
        clientId: this.signIn.clientId,
        redirectUrl: this.signIn.redirectUrl ?? `${this.origin()}/uploads/sign-in/callback`,
        organisationClaim: this.signIn.organisationClaim,
        roleClaim: this.signIn.roleClaim,
        providerNames: { [DEMO_PROVIDER.ukprn]: DEMO_PROVIDER.name },
      },
      async () => (await import('oidc-provider')).default,
    );
    return this.identity;
  }

  /** Registers the routes under `/uploads` on `fastify`, in a scope of its own: its own body parsers, headers and error pages. */
  async serve(fastify: FastifyInstance): Promise<void> {
    const ctx = this.ctx;
    this.fastify = fastify;
    if (this.withOwnIdentity) serveSandboxIdentity(fastify, () => this.sandboxIdentity());
    await fastify.register(
      async (scope) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser(
          'application/x-www-form-urlencoded',
          { parseAs: 'string', bodyLimit: URLENCODED_BYTES_MAX },
          (_r, body, done) => done(null, body),
        );
        scope.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: MULTIPART_BYTES_MAX }, (_r, body, done) =>
          done(null, body),
        );
        const onGovUk = this.onGovUk;
        scope.addHook('onSend', async (_request, reply, payload) => {
          void reply.headers({
            'cache-control': 'no-store',
            'content-security-policy': PAGE_CSP,
            'x-content-type-options': 'nosniff',
            'referrer-policy': 'no-referrer',
            'x-frame-options': 'DENY',
          });
          const page = typeof payload === 'string' && String(reply.getHeader('content-type')).startsWith('text/html');
          return page ? framedPage(payload, onGovUk) : payload;
        });
        scope.setErrorHandler((err: Error & { statusCode?: number }, request, reply) => errorPage(ctx, err, request, reply));
        scope.setNotFoundHandler((_request, reply) =>
          sendPage(reply, 404, messagePage('Page not found', 'If you typed the web address, check it is correct.')),
        );
        sessionRoutes(scope, ctx);
        guideRoutes(scope, ctx);
        signInRoutes(scope, ctx);
        uploadRoutes(scope, ctx);
        traineeRoutes(scope, ctx);
      },
      { prefix: '/uploads' },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.ctx.sessions.close();
  }
}
