import { Injectable, NotFoundException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { contractFor } from '@app/trainees/contract';
import type { ApiVersion } from '@app/trainees/record';
import { hashToken, tokenFromAuthorizationHeader } from '@app/providers/write';
import { tokenAuthenticates } from '@app/providers/decider';
import type { ApiRequest } from './request-context';
import { TokenUse } from './token-use';
import { CachedTokens } from '../composition/token-cache';
import { VERSION_PATTERN, VersionRegistry } from '../composition/versions';

/** 401 with `{error: "Unauthorized"}` (docs/spec/trainee-records-api.md "Authentication"). */
export class Unauthorized extends Error {}

/**
 * 404 in the `{errors: [{error: "NotFound", message}]}` shape for a path under `/api/<version>/`
 * that is not served (docs/reference/API-FACTS.md §1.4): `Not found`, or for a version that is not
 * served, a message naming the versions that are.
 */
export class RouteNotFound extends Error {
  constructor(message = 'Not found') {
    super(message);
  }
}

/** 404 `{"error":"Resource not found"}` for a path outside the API namespace (docs/reference/API-FACTS.md §1.5). */
export class ResourceNotFound extends Error {}

/**
 * Authenticates the request's bearer token against the token read model, then checks the path's
 * version is served (docs/reference/API-FACTS.md §2.8 order: authentication before version and route). Sets
 * `request.caller` and `request.contract` (the version's contract). A token authenticates while
 * active and before its expiry date (§2.4); its use is recorded at most once a day (§2.7, {@link TokenUse}).
 */
@Injectable()
export class ApiAuthenticator {
  constructor(
    private readonly providers: CachedTokens,
    private readonly versions: VersionRegistry,
    private readonly tokenUse: TokenUse,
  ) {}

  /** Resolves the caller or throws {@link Unauthorized}; then the version or {@link RouteNotFound}. */
  async authenticate(req: ApiRequest, versionSegment: string): Promise<void> {
    if (!VERSION_PATTERN.test(versionSegment)) throw new ResourceNotFound();
    const token = tokenFromAuthorizationHeader(req.headers.authorization);
    const holder = token ? await this.tokenHolder(hashToken(token)) : null;
    if (!holder) throw new Unauthorized();
    const version = this.resolveVersion(req, versionSegment);
    req.caller = {
      ukprn: holder.ukprn,
      tokenId: holder.tokenId,
      apiVersion: version,
      requestId: String(req.id ?? ''),
    };
  }

  /**
   * The provider holding the token of `tokenHash` (`hashToken`) when the token authenticates today:
   * active and before its expiry date (§2.4), its use recorded (§2.7); null otherwise. The one token
   * check of the API and of the uploads page's sign-in and session (docs/DESIGN.md "The uploads page").
   */
  async tokenHolder(tokenHash: string): Promise<{ ukprn: string; tokenId: string } | null> {
    const record = await this.providers.findTokenByHash(tokenHash);
    const today = this.tokenUse.today();
    if (!record || !tokenAuthenticates(record, today)) return null;
    this.tokenUse.recordUse(record, today);
    return { ukprn: record.ukprn, tokenId: record.token_id };
  }

  /**
   * The version a served segment stands for, set on the request as its contract; a version-like
   * segment that is not served → {@link RouteNotFound} naming the served versions (docs/reference/API-FACTS.md §1.4).
   */
  resolveVersion(req: ApiRequest, versionSegment: string): ApiVersion {
    const version = this.versions.resolve(versionSegment);
    if (!version) throw new RouteNotFound(this.versions.notServedMessage(versionSegment));
    req.contract = contractFor(version);
    req.versionSegment = versionSegment;
    return version;
  }
}

/** Guard of every `/api/:api_version/...` controller that needs a token. */
@Injectable()
export class ApiGuard implements CanActivate {
  constructor(private readonly authenticator: ApiAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    // Already authenticated before the body was read (apps/api/src/admission/authenticate-early.ts).
    if (req.caller) return true;
    const params = (req.params ?? {}) as Record<string, string>;
    await this.authenticator.authenticate(req, params.api_version ?? '');
    return true;
  }
}

/**
 * Guard of the endpoints served without a token under `/api/:version/` (reference data, the
 * OpenAPI documents; docs/reference/API-FACTS.md §17.1): sets `request.contract` for a served
 * version. A version that is not served is not routed, as for the reference (§1.4): the request
 * goes the way of an unknown route (authenticated, then 404 naming the served versions).
 */
@Injectable()
export class PublicVersionGuard implements CanActivate {
  constructor(private readonly versions: VersionRegistry) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const segment = ((req.params ?? {}) as Record<string, string>).api_version ?? '';
    const version = this.versions.resolve(segment);
    if (!version) throw new NotFoundException();
    req.contract = contractFor(version);
    req.versionSegment = segment;
    return true;
  }
}
