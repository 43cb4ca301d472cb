import { API_VERSIONS, PRODUCTION_API_VERSIONS, type ApiVersion } from '@app/domain';
import type { AppConfig } from '@app/application';

/** A path segment that looks like a version (docs/reference/API-FACTS.md §1.1): `v`, digits and dots, optional `-pre`/`-rc`. */
export const VERSION_PATTERN = /^v\d+(\.\d+)*(-pre|-rc)?$/;

/**
 * The versions this deployment serves: all of them in the sandbox, production versions only in
 * production (docs/spec/trainee-records-api.md "Versioning": v2026.1 is sandbox-only).
 */
export class VersionRegistry {
  readonly served: readonly ApiVersion[];
  /** The newest served version, reported by GET /info as `version.latest`. */
  readonly latest: ApiVersion;

  constructor(appEnv: AppConfig['appEnv']) {
    this.served = appEnv === 'production' ? PRODUCTION_API_VERSIONS : API_VERSIONS;
    this.latest = this.served[this.served.length - 1];
  }

  /** The served version named by a path segment, or null. */
  resolve(segment: string): ApiVersion | null {
    return (this.served as readonly string[]).includes(segment) ? (segment as ApiVersion) : null;
  }
}
