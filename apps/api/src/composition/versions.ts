import { ServedVersions, VERSION_PATTERN } from '@app/trainees/record';
import type { AppConfig } from '@app/runtime/process';

export { VERSION_PATTERN };

/** `API_VERSIONS` (by default `APP_ENV`'s; API-FACTS §1.2), aliases included (§1.3). */
export class VersionRegistry extends ServedVersions {
  constructor(config: Pick<AppConfig, 'apiVersions'>) {
    super(config.apiVersions);
  }

  /** The §1.4 404 message names the versions served, so a client on a retired one learns where to go. */
  notServedMessage(segment: string): string {
    return `Not found: API version '${segment}' is not served here; the versions served are ${this.names.join(', ')}`;
  }
}
