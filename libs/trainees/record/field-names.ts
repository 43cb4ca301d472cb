/**
 * Per-version field names from the record tables' rows (docs/spec/trainee-records-api.md "Trainee object"; docs/reference/API-FACTS.md
 * §13.2, §18), so nothing else needs `if (version === …)` for naming.
 */
import { DEGREE_RECORD } from './degree.record';
import type { FieldRow } from './field-table';
import { PLACEMENT_RECORD } from './placement.record';
import { TRAINEE_RECORD } from './trainee.record';
import { type ApiVersion, API_VERSIONS } from './versions';

/** Canonical (v2026.1) name → name in each version, null where it has no such field; unlisted fields are named alike everywhere. */
export const VERSION_FIELD_NAMES: Readonly<Record<string, Readonly<Record<ApiVersion, string | null>>>> = Object.fromEntries(
  ([...TRAINEE_RECORD, ...PLACEMENT_RECORD, ...DEGREE_RECORD] as readonly FieldRow<never>[])
    .filter((row) => row.names)
    .map((row) => [
      row.name,
      Object.fromEntries(API_VERSIONS.map((v) => [v, row.names![v] === undefined ? row.name : row.names![v]])) as Record<
        ApiVersion,
        string | null
      >,
    ]),
);

const TO_CANONICAL: ReadonlyMap<ApiVersion, ReadonlyMap<string, string>> = new Map(
  API_VERSIONS.map((version) => [
    version,
    new Map(
      Object.entries(VERSION_FIELD_NAMES)
        .filter(([, names]) => names[version] !== null)
        .map(([canonical, names]) => [names[version] as string, canonical]),
    ),
  ]),
);

/** Every name some version uses for a version-dependent field (canonical names included). */
const ALL_DEPENDENT_NAMES: ReadonlySet<string> = new Set(
  Object.entries(VERSION_FIELD_NAMES).flatMap(([canonical, names]) => [
    canonical,
    ...Object.values(names).filter((n): n is string => n !== null),
  ]),
);

/** The name `version` uses for `canonical`, or null when it has no such field. */
export function versionFieldName(canonical: string, version: ApiVersion): string | null {
  const names = VERSION_FIELD_NAMES[canonical];
  return names ? names[version] : canonical;
}

/** The field's label in messages: its name as the client knows it (docs/reference/API-FACTS.md §5.2). */
export function fieldLabel(canonical: string, version: ApiVersion): string {
  return versionFieldName(canonical, version) ?? canonical;
}

/** The canonical name of an input key of `version`; null for another version's name or a field it lacks; other keys unchanged. */
export function canonicalFieldName(key: string, version: ApiVersion): string | null {
  const canonical = TO_CANONICAL.get(version)?.get(key);
  if (canonical !== undefined) return canonical;
  return ALL_DEPENDENT_NAMES.has(key) ? null : key;
}

/**
 * The input keys of `version` renamed by {@link canonicalFieldName}, unknown ones kept, in an object without a prototype, so
 * `__proto__` is plain data.
 */
export function toCanonicalInput(input: Record<string, unknown>, version: ApiVersion): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (input === null || typeof input !== 'object') return out;
  for (const key of Object.keys(input)) {
    const canonical = canonicalFieldName(key, version);
    if (canonical === null) continue;
    out[canonical] = (input as Record<string, unknown>)[key];
  }
  return out;
}

/** The inverse of {@link toCanonicalInput}, for serializers: fields the version lacks are dropped. */
export function toVersionOutput<T extends Record<string, unknown>>(canonical: T, version: ApiVersion): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(canonical)) {
    const name = versionFieldName(key, version);
    if (name === null) continue;
    out[name] = canonical[key];
  }
  return out;
}
