/**
 * The API versions implemented, listed here and nowhere else, and how a path's version segment is read
 * (docs/spec/trainee-records-api.md "Versioning"; docs/reference/API-FACTS.md §1.1–§1.4).
 */

/** Versions with an implementation: a contract of their own (libs/trainees/contract/contract.ts). */
export const API_VERSIONS = ['v2025.0', 'v2026.1'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Names answering as another version, GET /info echoing the name requested (docs/reference/API-FACTS.md §1.3). */
export const VERSION_ALIASES: Readonly<Record<string, ApiVersion>> = Object.freeze({ 'v2025.0-rc': 'v2025.0' });

/** A path segment that looks like a version (§1.1): `v`, digits and dots, optional `-pre`/`-rc`. */
export const VERSION_PATTERN = /^v\d+(\.\d+)*(-pre|-rc)?$/;

/** Served per `APP_ENV` when the configuration names none (docs/spec/trainee-records-api.md "Versioning"). */
export const DEFAULT_SERVED_VERSIONS: Readonly<Record<'sandbox' | 'production', readonly string[]>> = Object.freeze({
  sandbox: ['v2025.0', 'v2026.1'],
  production: ['v2025.0'],
});

/** True when `value` names a version with an implementation (aliases excluded). */
export function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}

/** The implemented version a name stands for (a version or an alias), or null. */
export function implementedVersion(name: string): ApiVersion | null {
  if (isApiVersion(name)) return name;
  return Object.prototype.hasOwnProperty.call(VERSION_ALIASES, name) ? VERSION_ALIASES[name] : null;
}

/** The versions a deployment serves: configured names (versions or aliases), each resolved to the version that answers it. */
export class ServedVersions {
  /** The names served, as configured. */
  readonly names: readonly string[];
  /** The newest implemented version served, reported by GET /info as `version.latest`. */
  readonly latest: ApiVersion;

  /** Throws an Error naming a name that no implementation serves, or an empty list. */
  constructor(names: readonly string[]) {
    const unknown = names.filter((n) => implementedVersion(n) === null);
    if (unknown.length > 0)
      throw new Error(
        `not an implemented API version: ${unknown.join(', ')} (known: ${[...API_VERSIONS, ...Object.keys(VERSION_ALIASES)].join(', ')})`,
      );
    if (names.length === 0) throw new Error('no API version to serve');
    this.names = [...new Set(names)];
    const served = new Set(this.names.map((n) => implementedVersion(n)!));
    this.latest = [...API_VERSIONS].reverse().find((v) => served.has(v))!;
  }

  /** The implemented version answering a served path segment, or null when the segment is not served. */
  resolve(segment: string): ApiVersion | null {
    return this.names.includes(segment) ? implementedVersion(segment) : null;
  }

  /** The implemented versions served (each once, oldest first). */
  get versions(): readonly ApiVersion[] {
    return API_VERSIONS.filter((v) => this.names.some((n) => implementedVersion(n) === v));
  }
}
