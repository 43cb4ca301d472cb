import { ServedVersions, VERSION_PATTERN } from '@app/trainees/record';
import type { AppConfig } from '@app/runtime/process';

export { VERSION_PATTERN };

/**
 * The versions this deployment serves: the configured allow-list (`API_VERSIONS`, default by
 * `APP_ENV`; docs/reference/API-FACTS.md §1.2), aliases included (§1.3).
 */
export class VersionRegistry extends ServedVersions {
  constructor(config: Pick<AppConfig, 'apiVersions'>) {
    super(config.apiVersions);
  }

  /**
   * The 404 message for a version-like segment that is not served (§1.4 shape): it names the
   * versions that are, so a client on a retired version learns where to go.
   */
  notServedMessage(segment: string): string {
    return `Not found: API version '${segment}' is not served here; the versions served are ${this.names.join(', ')}`;
  }
}
