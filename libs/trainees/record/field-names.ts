/**
 * Per-version field names (the version-dependent fields table of docs/spec/trainee-records-api.md
 * "Trainee object"; docs/reference/API-FACTS.md §13.2, §18), gathered from the record tables' rows
 * (each row says what the versions that call its field otherwise call it). The canonical name of a
 * field is its v2026.1 name; nothing else needs `if (version === …)` for naming: the wire checks
 * read the version's keys with these, the messages label fields with them, and the serializers, the
 * OpenAPI document and the admin CLI's history view name output fields with them.
 */
import { DEGREE_RECORD } from './degree.record';
import type { FieldRow } from './field-table';
import { PLACEMENT_RECORD } from './placement.record';
import { TRAINEE_RECORD } from './trainee.record';
import { type ApiVersion, API_VERSIONS } from './versions';

/**
 * Canonical (v2026.1) name → name in each version; `null` = the version has no such field (its
 * input key is dropped, its output key is absent). Fields not listed are named the same in every
 * version.
 */
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

/**
 * The name `version` uses for the canonical field `canonical`, or null when the version has no
 * such field (iqts_country in v2025.0). Fields not in {@link VERSION_FIELD_NAMES} keep their name.
 */
export function versionFieldName(canonical: string, version: ApiVersion): string | null {
  const names = VERSION_FIELD_NAMES[canonical];
  return names ? names[version] : canonical;
}

/**
 * The field label used in messages (docs/reference/API-FACTS.md §5.2: the field name as the client knows it), e.g.
 * `course_subject_1` → `course_subject_one` in v2025.0. Falls back to the canonical name.
 */
export function fieldLabel(canonical: string, version: ApiVersion): string {
  return versionFieldName(canonical, version) ?? canonical;
}

/**
 * The canonical name of an input key of `version`, or null when the key is the other version's
 * name for a version-dependent field (or a field this version lacks), e.g. `lead_partner_urn` in
 * v2026.1, `course_subject_1` and `iqts_country` in v2025.0. Other keys are returned unchanged.
 */
export function canonicalFieldName(key: string, version: ApiVersion): string | null {
  const canonical = TO_CANONICAL.get(version)?.get(key);
  if (canonical !== undefined) return canonical;
  return ALL_DEPENDENT_NAMES.has(key) ? null : key;
}

/**
 * Renames the input keys of `version` to canonical names and drops the keys that version does not
 * accept under that name (see {@link canonicalFieldName}). Other keys (unknown ones included) are
 * kept as they are; validators pick what they accept. Takes any parsed JSON object; returns a new
 * object without a prototype, so keys such as `__proto__` or `constructor` are plain data.
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

/**
 * Renames canonical keys of an output object to the names of `version` and drops fields the version
 * lacks (the inverse of {@link toCanonicalInput}, for serializers). Other keys are kept.
 */
export function toVersionOutput<T extends Record<string, unknown>>(canonical: T, version: ApiVersion): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(canonical)) {
    const name = versionFieldName(key, version);
    if (name === null) continue;
    out[name] = canonical[key];
  }
  return out;
}
