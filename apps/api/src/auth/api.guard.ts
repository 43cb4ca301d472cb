import { Injectable, NotFoundException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { contractFor } from '@app/trainees/contract';
import type { ApiVersion } from '@app/trainees/record';
import { hashToken, tokenFromAuthorizationHeader } from '@app/providers/write';
import { tokenAuthenticates } from '@app/providers/decider';
import type { ApiRequest } from './request-context';
import { TokenUse } from './token-use';
import { CachedTokens } from '../composition/token-cache';
import { VERSION_PATTERN, VersionRegistry } from '../composition/versions';

/** 401 `{error: "Unauthorized"}` (docs/spec/trainee-records-api.md "Authentication"). */
export class Unauthorized extends Error {}

/** 404 `{errors: [{error: "NotFound", message}]}` under `/api/<version>/` (API-FACTS §1.4); naming the served versions for another. */
export class RouteNotFound extends Error {
  constructor(message = 'Not found') {
    super(message);
  }
}

/** 404 `{"error":"Resource not found"}` outside the API namespace (API-FACTS §1.5). */
export class ResourceNotFound extends Error {}

/**
 * Authenticates the bearer token, then resolves the path's version (API-FACTS §2.8's order), setting `request.caller` and
 * `request.contract`. A token authenticates while active and before its expiry date (§2.4); its use is recorded daily (§2.7).
 */
@Injectable()
export class ApiAuthenticator {
  constructor(
    private readonly providers: CachedTokens,
    private readonly versions: VersionRegistry,
    private readonly tokenUse: TokenUse,
  ) {}

  /** {@link Unauthorized}, then {@link RouteNotFound}. */
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

  /** The provider of a token that authenticates today, its use recorded; null otherwise. The one token check, the uploads page's too. */
  async tokenHolder(tokenHash: string): Promise<{ ukprn: string; tokenId: string } | null> {
    const record = await this.providers.findTokenByHash(tokenHash);
    const today = this.tokenUse.today();
    if (!record || !tokenAuthenticates(record, today)) return null;
    this.tokenUse.recordUse(record, today);
    return { ukprn: record.ukprn, tokenId: record.token_id };
  }

  /** Sets the contract; a version-like segment not served → {@link RouteNotFound} naming the served versions (API-FACTS §1.4). */
  resolveVersion(req: ApiRequest, versionSegment: string): ApiVersion {
    const version = this.versions.resolve(versionSegment);
    if (!version) throw new RouteNotFound(this.versions.notServedMessage(versionSegment));
    req.contract = contractFor(version);
    req.versionSegment = versionSegment;
    return version;
  }
}

/** Of every `/api/:api_version/...` controller that needs a token. */
@Injectable()
export class ApiGuard implements CanActivate {
  constructor(private readonly authenticator: ApiAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    // Authenticated before the body was read (admission/authenticate-early.ts).
    if (req.caller) return true;
    const params = (req.params ?? {}) as Record<string, string>;
    await this.authenticator.authenticate(req, params.api_version ?? '');
    return true;
  }
}

/**
 * Of the endpoints served without a token (reference data, OpenAPI documents; API-FACTS §17.1): sets `request.contract`. An unserved
 * version is not routed, as for the reference (§1.4): authenticated, then 404 naming the served versions.
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
