/**
 * A person's sign-in to the uploads page by OpenID Connect (`openid-client`): the authorisation code flow with PKCE, state and nonce
 * kept in the page session, the ID token's claims mapped to the person's provider and role (docs/operations.md "Signing in to the
 * uploads page"). The person's `sub` is all that is kept of them: never a name or an email.
 */
import * as client from 'openid-client';
import type { PageSignInConfig } from '@app/runtime/process';
import type { PageRole, PendingLogin, SignedInAs } from './page-sessions';

/** The scopes asked: the organisation scope carries the organisation and roles at DfE Sign-in style providers. */
const SCOPE = 'openid organisation';
/** The longest `sub` or provider name kept. */
const SUB_MAX = 255;
const PROVIDER_NAME_MAX = 200;

/** Why a callback did not sign anyone in: a 4xx status and the words the page shows. */
export class SignInRefused extends Error {
  constructor(
    readonly status: 400 | 403,
    message: string,
  ) {
    super(message);
  }
}

/** Where the identity provider is and who the page is to it. */
export interface PersonSignInTarget {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  /** http:// allowed (the sandbox's own provider). */
  insecure: boolean;
}

/** The person's role from the role claim (a string or a list): `uploader` over `viewer`; null when neither. */
function roleOf(claim: unknown): PageRole | null {
  const roles = (Array.isArray(claim) ? claim : [claim]).filter((r): r is string => typeof r === 'string');
  if (roles.includes('uploader')) return 'uploader';
  if (roles.includes('viewer')) return 'viewer';
  return null;
}

/**
 * The sign-in against one identity provider: its metadata discovered at the first sign-in (and again after a failure), then kept.
 */
export class PersonSignIn {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(
    private readonly target: PersonSignInTarget,
    private readonly claims: Pick<PageSignInConfig, 'organisationClaim' | 'roleClaim'>,
  ) {}

  get redirectUrl(): string {
    return this.target.redirectUrl;
  }

  /** A new login (random state, nonce and PKCE verifier) and the identity provider's URL to send the browser to. */
  async begin(): Promise<{ login: PendingLogin; url: string }> {
    const config = await this.config();
    const login: PendingLogin = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.target.redirectUrl,
      scope: SCOPE,
      state: login.state,
      nonce: login.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(login.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { login, url: url.href };
  }

  /**
   * The callback's URL exchanged for the ID token and mapped to who signs in; {@link SignInRefused} 400 for an answer that does not
   * match the login (state, nonce, PKCE, a refused code) or a token without the claims, 403 for a person with no role here.
   */
  async finish(callbackUrl: URL, login: PendingLogin): Promise<SignedInAs> {
    const config = await this.config();
    let claims: client.IDToken | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      if (
        err instanceof client.ClientError ||
        err instanceof client.AuthorizationResponseError ||
        err instanceof client.ResponseBodyError
      ) {
        throw new SignInRefused(400, 'Your sign-in could not be completed. Start again.');
      }
      throw err;
    }
    const sub = claims?.sub;
    const organisation = claims?.[this.claims.organisationClaim] as { ukprn?: unknown; name?: unknown } | undefined;
    const ukprn = organisation?.ukprn;
    if (typeof sub !== 'string' || sub === '' || sub.length > SUB_MAX || typeof ukprn !== 'string' || !/^\d{8}$/.test(ukprn)) {
      throw new SignInRefused(403, 'Your account is not linked to a training provider’s UKPRN. Ask your organisation’s approver.');
    }
    const role = roleOf(claims?.[this.claims.roleClaim]);
    if (role === null) throw new SignInRefused(403, 'Your account has no role in this service. Ask your organisation’s approver.');
    const name = typeof organisation?.name === 'string' ? organisation.name.trim().slice(0, PROVIDER_NAME_MAX) || null : null;
    return { ukprn, providerName: name, by: 'person', userId: sub, role };
  }

  private config(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret, insecure } = this.target;
    this.configuration ??= client
      .discovery(new URL(issuer), clientId, clientSecret, undefined, insecure ? { execute: [client.allowInsecureRequests] } : {})
      .catch((err: unknown) => {
        this.configuration = null;
        throw err;
      });
    return this.configuration;
  }
}
