import { str } from 'envalid';

/**
 * How providers' staff sign in to the uploads page (docs/operations.md "Configuration", "Signing in to the uploads page"): OpenID
 * Connect's authorisation code flow with PKCE against `issuerUrl`, each person's provider and role read from their ID token's claims.
 */
export interface PageSignInConfig {
  /** Null: in the sandbox its own identity provider, served by the API at `/sandbox-identity`; in production no one can sign in. */
  issuerUrl: string | null;
  clientId: string;
  /** Null with the sandbox's own identity provider, which knows it. */
  clientSecret: string | null;
  /** Where the identity provider sends the browser back; null (the sandbox only): the API's own address + `/uploads/sign-in/callback`. */
  redirectUrl: string | null;
  /** The claim holding the person's organisation, an object with its `ukprn` (8 digits) and `name`, as DfE Sign-in's `organisation`. */
  organisationClaim: string;
  /** The claim holding the person's roles for this service: a string or an array of them, of which `uploader` or `viewer` count. */
  roleClaim: string;
  /** Whether staff may sign in with the provider's API token too: the sandbox only. */
  tokenSignIn: boolean;
}

/** The longest URL, client id or secret accepted. */
const SETTING_CHARS_MAX = 2_000;
/** A claim's name: letters, digits, `_`, `-`, `.`, `:` and `/` (a claim may be named by a URL). */
const CLAIM_NAME = /^[A-Za-z0-9_.:/-]{1,100}$/;

/** The variables of {@link PageSignInConfig}, for the configuration's envalid spec. */
export function pageSignInEnv() {
  return {
    OIDC_ISSUER_URL: str({ default: '', desc: 'the OpenID provider staff sign in with (unset: the sandbox’s own; none in production)' }),
    OIDC_CLIENT_ID: str({ default: 'trainee-records-uploads', desc: 'the uploads page’s client id at the OpenID provider' }),
    OIDC_CLIENT_SECRET: str({ default: '', desc: 'its client secret (required with OIDC_ISSUER_URL)' }),
    OIDC_REDIRECT_URL: str({
      default: '',
      desc: 'https://<the service>/uploads/sign-in/callback, as registered (required with OIDC_ISSUER_URL in production)',
    }),
    OIDC_ORGANISATION_CLAIM: str({ default: 'organisation', desc: 'the claim with the person’s organisation: { ukprn, name }' }),
    OIDC_ROLE_CLAIM: str({ default: 'roles', desc: 'the claim with the person’s roles (uploader, viewer)' }),
  };
}

type PageSignInEnv = { [K in keyof ReturnType<typeof pageSignInEnv>]: string };

/** The settings, or the problems found, each naming its variable. */
export function pageSignInOf(clean: PageSignInEnv, appEnv: 'sandbox' | 'production'): PageSignInConfig | string[] {
  const problems: string[] = [];
  const issuerUrl = clean.OIDC_ISSUER_URL.trim() || null;
  const redirectUrl = clean.OIDC_REDIRECT_URL.trim() || null;
  const clientSecret = clean.OIDC_CLIENT_SECRET.trim() || null;
  const clientId = clean.OIDC_CLIENT_ID.trim();
  const secure = appEnv === 'production';
  for (const [name, url] of [
    ['OIDC_ISSUER_URL', issuerUrl],
    ['OIDC_REDIRECT_URL', redirectUrl],
  ] as const) {
    if (url !== null && !urlOk(url, secure)) {
      problems.push(`${name}: must be an ${secure ? 'https://' : 'http:// or https://'} URL of at most ${SETTING_CHARS_MAX} characters`);
    }
  }
  if (secure && issuerUrl !== null && redirectUrl === null) {
    problems.push('OIDC_REDIRECT_URL: required with OIDC_ISSUER_URL in production, https://<the service>/uploads/sign-in/callback');
  }
  if (issuerUrl !== null && clientSecret === null) problems.push('OIDC_CLIENT_SECRET: required with OIDC_ISSUER_URL');
  if (clientId === '' || clientId.length > SETTING_CHARS_MAX) problems.push(`OIDC_CLIENT_ID: 1 to ${SETTING_CHARS_MAX} characters`);
  if ((clientSecret?.length ?? 0) > SETTING_CHARS_MAX) problems.push(`OIDC_CLIENT_SECRET: at most ${SETTING_CHARS_MAX} characters`);
  for (const name of ['OIDC_ORGANISATION_CLAIM', 'OIDC_ROLE_CLAIM'] as const) {
    if (!CLAIM_NAME.test(clean[name])) problems.push(`${name}: a claim name: letters, digits, _ - . : or /, at most 100`);
  }
  if (problems.length > 0) return problems;
  return {
    issuerUrl,
    clientId,
    clientSecret,
    redirectUrl,
    organisationClaim: clean.OIDC_ORGANISATION_CLAIM,
    roleClaim: clean.OIDC_ROLE_CLAIM,
    tokenSignIn: !secure,
  };
}

/** The sandbox's defaults: its own identity provider, the token sign-in beside it. */
export const SANDBOX_PAGE_SIGN_IN: PageSignInConfig = {
  issuerUrl: null,
  clientId: 'trainee-records-uploads',
  clientSecret: null,
  redirectUrl: null,
  organisationClaim: 'organisation',
  roleClaim: 'roles',
  tokenSignIn: true,
};

function urlOk(text: string, secure: boolean): boolean {
  if (text.length > SETTING_CHARS_MAX || !URL.canParse(text)) return false;
  const url = new URL(text);
  return url.protocol === 'https:' || (!secure && url.protocol === 'http:');
}
