/**
 * The sandbox's own OpenID provider (`oidc-provider`), served by the API at `/sandbox-identity`, so that in the sandbox a person signs
 * in to the uploads page without any service outside it (docs/operations.md "Signing in to the uploads page"). Its sign-in page takes
 * a demo person's name, a UKPRN and a role, and answers with the claims a DfE Sign-in style provider gives: an opaque `sub`, and the
 * organisation (`ukprn`, `name`) and roles. What it holds (codes, its own sessions, the people seen) lives in this process: a restart
 * loses a sign-in midway, never a page session. Never served in production.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import { html, type Html } from './html';
import { page } from './layout';

export const SANDBOX_IDENTITY_PATH = '/sandbox-identity';
export const SANDBOX_CLIENT_SECRET = 'sandbox-client-secret';

/** The demo provider's name, for people of that UKPRN. */
export interface SandboxIdentityOptions {
  /** The API's own address, e.g. `http://127.0.0.1:3000`. */
  origin: string;
  clientId: string;
  redirectUrl: string;
  organisationClaim: string;
  roleClaim: string;
  /** UKPRN → name, for the organisation claim; others are named `Provider <UKPRN>`. */
  providerNames: Readonly<Record<string, string>>;
}

/** A demo person: what the sign-in form took. */
interface DemoPerson {
  ukprn: string;
  role: 'uploader' | 'viewer';
  name: string;
}

/** The demo people remembered for their claims. */
const PEOPLE_MAX = 10_000;
/** The form's bounds: a name of at most 50 characters, a UKPRN of 8 digits. */
const NAME_MAX = 50;

/** An opaque, stable `sub` for a demo person: the same name, UKPRN and role sign in as the same person. */
const subOf = (p: DemoPerson) =>
  `sandbox-${createHash('sha256')
    .update(JSON.stringify([p.name, p.ukprn, p.role]))
    .digest('base64url')
    .slice(0, 22)}`;

function signInForm(uid: string, error: string | null): string {
  const field = (name: string, label: string, value: string, extra: Html = html``) =>
    html`<div class="govuk-form-group">
      <label class="govuk-label" for="${name}">${label}</label>
      <input class="govuk-input govuk-input--width-20" id="${name}" name="${name}" type="text" value="${value}" ${extra} />
    </div>`;
  return page({
    title: 'Sandbox sign-in',
    errors: error ? [{ message: error, field: 'ukprn' }] : [],
    main: html`<h1 class="govuk-heading-l">Sandbox sign-in</h1>
      <p class="govuk-body">The sandbox’s own identity provider: sign in as a demo person of any provider registered here.</p>
      <form method="post" action="${SANDBOX_IDENTITY_PATH}/interaction/${uid}" novalidate>
        ${field('name', 'Demo person', 'demo')} ${field('ukprn', 'UKPRN of their provider', '10000001', html`inputmode="numeric"`)}
        <div class="govuk-form-group">
          <label class="govuk-label" for="role">Role</label>
          <select class="govuk-select" id="role" name="role">
            <option value="uploader">Uploader: adds trainees from files</option>
            <option value="viewer">Viewer: sees the uploads only</option>
          </select>
        </div>
        <button type="submit" class="govuk-button" data-module="govuk-button">Sign in</button>
      </form>`,
  });
}

/** The form's fields, bounded; a sentence on what is wrong. */
function demoPersonOf(body: string): DemoPerson | string {
  if (body.length > 1_000) return 'The form is too long';
  const form = new URLSearchParams(body);
  const [name, ukprn, role] = [form.get('name')?.trim() ?? '', form.get('ukprn')?.trim() ?? '', form.get('role') ?? ''];
  if (!/^\d{8}$/.test(ukprn)) return 'Enter a UKPRN of 8 digits';
  if (name === '' || name.length > NAME_MAX) return `Enter a demo person’s name of at most ${NAME_MAX} characters`;
  if (role !== 'uploader' && role !== 'viewer') return 'Choose a role';
  return { name, ukprn, role };
}

function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > max) req.destroy(new Error('body too long'));
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** The sandbox's provider and its sign-in page, mounted on the API's Fastify at {@link SANDBOX_IDENTITY_PATH}. */
export class SandboxIdentity {
  readonly issuer: string;
  /** Made at the first request under the path: most sandbox processes never sign anyone in this way. */
  private started: Promise<{ provider: Provider; callback: (req: IncomingMessage, res: ServerResponse) => Promise<void> }> | null = null;
  private readonly people = new Map<string, DemoPerson>();

  /**
   * `loadProvider`: oidc-provider's class, loaded at the first request under the path (loading it costs a start time and prints its
   * own warnings, so a process that never serves it never loads it).
   */
  constructor(
    private readonly options: SandboxIdentityOptions,
    private readonly loadProvider: () => Promise<typeof Provider>,
  ) {
    this.issuer = `${options.origin}${SANDBOX_IDENTITY_PATH}`;
  }

  /** The provider, made once: its signing key, its one client and the demo people's claims. */
  private provider(): Promise<{ provider: Provider; callback: (req: IncomingMessage, res: ServerResponse) => Promise<void> }> {
    this.started ??= this.loadProvider().then((ProviderClass) => {
      const provider = new ProviderClass(this.issuer, this.configuration());
      return { provider, callback: provider.callback() };
    });
    return this.started;
  }

  private configuration(): Configuration {
    const options = this.options;
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    const { organisationClaim, roleClaim } = options;
    const configuration: Configuration = {
      clients: [
        {
          client_id: options.clientId,
          client_secret: SANDBOX_CLIENT_SECRET,
          redirect_uris: [options.redirectUrl],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [{ ...key, kid: 'sandbox', alg: 'RS256', use: 'sig' } as never] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      claims: { openid: ['sub'], organisation: [organisationClaim, roleClaim] },
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `${SANDBOX_IDENTITY_PATH}/interaction/${interaction.uid}` },
      ttl: { Interaction: 600, Session: 3_600, Grant: 3_600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
      findAccount: (_ctx, sub) => {
        const person = this.people.get(sub);
        if (!person) return undefined;
        const name = options.providerNames[person.ukprn] ?? `Provider ${person.ukprn}`;
        return { accountId: sub, claims: () => ({ sub, [organisationClaim]: { ukprn: person.ukprn, name }, [roleClaim]: [person.role] }) };
      },
    };
    return configuration;
  }

  /** A request under {@link SANDBOX_IDENTITY_PATH}: the sign-in page's, or the provider's (the path's prefix taken off for it). */
  async handle(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse): Promise<void> {
    const url = req.url ?? '';
    const interaction = /^\/sandbox-identity\/interaction\/([\w-]{1,100})$/.exec(url.split('?')[0]);
    if (interaction) {
      await this.interact(req, res, interaction[1]).catch(() => this.send(res, 400, 'The sign-in has ended: start again.'));
      return;
    }
    req.originalUrl = url;
    req.url = url.slice(SANDBOX_IDENTITY_PATH.length) || '/';
    await (await this.provider()).callback(req, res);
  }

  private async interact(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const { provider } = await this.provider();
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) return this.send(res, 400, 'The sign-in has ended: start again.');
    if (req.method === 'GET') return this.send(res, 200, signInForm(uid, null));
    const person = demoPersonOf(await readBody(req, 1_000));
    if (typeof person === 'string') return this.send(res, 422, signInForm(uid, person));
    const sub = subOf(person);
    // Bounded: the oldest person seen goes first (signed in again, they come back).
    if (this.people.size >= PEOPLE_MAX) this.people.delete(this.people.keys().next().value!);
    this.people.set(sub, person);
    const grant = new provider.Grant({ accountId: sub, clientId: this.options.clientId });
    grant.addOIDCScope('openid organisation');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  private send(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(
      status >= 400 && !body.startsWith('<') ? page({ title: 'Sandbox sign-in', main: html`<p class="govuk-body">${body}</p>` }) : body,
    );
  }
}

/**
 * Hands every request under {@link SANDBOX_IDENTITY_PATH} to the identity `of()` gives (made at the first such request, once the API's
 * address is known), before Fastify reads its body: oidc-provider reads the bodies itself.
 */
export function serveSandboxIdentity(fastify: FastifyInstance, of: () => SandboxIdentity): void {
  fastify.addHook('onRequest', async (request, reply) => {
    const url = request.raw.url ?? '';
    if (url !== SANDBOX_IDENTITY_PATH && !url.startsWith(`${SANDBOX_IDENTITY_PATH}/`) && !url.startsWith(`${SANDBOX_IDENTITY_PATH}?`))
      return;
    reply.hijack();
    await of().handle(request.raw, reply.raw);
    return reply;
  });
}
