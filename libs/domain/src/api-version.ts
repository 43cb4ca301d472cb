/**
 * API versions this service implements (docs/spec/trainee-records-api.md "Versioning"; docs/reference/API-FACTS.md §1.2). v0.1 and v1.0-pre are
 * removed and answer the catch-all 404.
 */
export const API_VERSIONS = ['v2025.0', 'v2026.1'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Versions served in production (`APP_ENV=production`); the sandbox serves all of {@link API_VERSIONS}. */
export const PRODUCTION_API_VERSIONS: readonly ApiVersion[] = ['v2025.0'];

export function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}
