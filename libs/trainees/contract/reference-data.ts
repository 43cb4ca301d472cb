/**
 * The body of `GET /api/<version>/reference-data` where the version has it: the reference implementation's, byte for byte
 * (docs/reference/API-FACTS.md §17; docs/reference/reference-data/README.md).
 */
import v2026Body from './reference-data/v2026.1-reference-data-response.json';
import type { ApiVersion } from '@app/trainees/record';

/** One coded list of the endpoint: metadata and entries (`withdrawal_reasons` adds triggers and future interest). */
export type ReferenceDataField = Readonly<Record<string, unknown>>;

/** The endpoint's whole body: one field per coded list. */
export type ReferenceDataBody = Readonly<Record<string, ReferenceDataField>>;

const BODIES: Readonly<Partial<Record<ApiVersion, ReferenceDataBody>>> = {
  'v2026.1': Object.freeze(v2026Body as unknown as ReferenceDataBody),
};

/** The reference-data body of `version`, or null when the version has no such endpoint (§17.4). */
export function referenceDataFor(version: ApiVersion): ReferenceDataBody | null {
  return BODIES[version] ?? null;
}

/** `Reference data field '<key>' not found` (§17.3). */
export function unknownReferenceFieldMessage(field: string): string {
  return `Reference data field '${field}' not found`;
}

/** `Reference data is not available for version '<version>'` (§17.4). */
export function referenceDataNotAvailableMessage(version: string): string {
  return `Reference data is not available for version '${version}'`;
}
