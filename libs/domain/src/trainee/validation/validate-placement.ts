import type { PlacementInput, School } from '../trainee.details';
import { isNotApplicableUrn, notApplicableUrnLabel } from '../../reference-data';
import type { ValidationContext, ValidationResult } from './validation-result';
import { asText, getKey, hasKey, isBlank, isJsonObject } from './values';

/** Prefix of nested placement messages in a trainee create (docs/reference/API-FACTS.md §5.2). */
export const NESTED_PLACEMENT_PREFIX = 'placements_attributes ';

/** Exactly six digits (docs/reference/API-FACTS.md §10.1). */
const URN_FORMAT = /^[0-9]{6}$/;

/**
 * A full UK postcode: outward code (A9, A99, AA9, AA99, A9A, AA9A with the Royal Mail letter
 * restrictions) or GIR, optional white space, inward code (digit + two letters, no C I K M O V).
 * Case-insensitive.
 */
const UK_POSTCODE = /^(?:GIR\s*0AA|[A-PR-UWYZ](?:[0-9][0-9]?|[A-HK-Y][0-9][0-9]?|[0-9][A-HJKPS-UW]|[A-HK-Y][0-9][ABEHMNPRVWXY])\s*[0-9][ABD-HJLNP-UW-Z]{2})$/i;

/** True when `postcode` is a valid full UK postcode (docs/reference/API-FACTS.md §10.1), e.g. `BN1 1AA`, `sw1a1aa`. */
export function isValidUkPostcode(postcode: string): boolean {
  return UK_POSTCODE.test(postcode.trim());
}

/**
 * The derived placement `address` of a school of the directory (docs/reference/API-FACTS.md §10.3):
 * `URN <urn>, <town>, <postcode>`, leaving out empty parts.
 */
export function schoolAddress(school: School): string {
  return [`URN ${school.urn}`, school.town, school.postcode].filter((p) => p && p.trim() !== '').join(', ');
}

/**
 * Validates one placement (docs/reference/API-FACTS.md §10.1, §6.10). Takes the request's placement object (any JSON
 * value; a non-object counts as `{}`), the context, and `nested` (true inside a trainee create's
 * `placements_attributes`). Returns the placement to store, or the messages.
 *
 * - `urn`: optional; when present exactly six digits, else `urn is invalid`.
 * - A URN of a school in the directory (`ctx.schools`) links the placement (§10.2): its URN, name and
 *   postcode are the school's, `address` is derived from it, and `name` need not be sent.
 * - Otherwise `name` is required (`name can't be blank`) and the name and postcode sent are kept,
 *   with `address: null` (an unknown URN has no address).
 * - `postcode`: optional; when present a valid full UK postcode, else
 *   `postcode Enter a valid postcode (for example, BN1 1AA)`.
 * - Nested items (§6.10): `postcode` is dropped, and a not-applicable URN replaces the name with its
 *   label from `placement_magic_urn.json`; messages carry the prefix `placements_attributes `.
 * Keys are read as sent (`urn` and `name` are not trimmed); a JSON number is read as its text.
 */
export function validatePlacement(input: unknown, ctx: ValidationContext, opts: { nested: boolean }): ValidationResult<PlacementInput> {
  const data = isJsonObject(input) ? input : {};
  const errors: string[] = [];
  const prefix = opts.nested ? NESTED_PLACEMENT_PREFIX : '';

  let urn: string | null = null;
  const rawUrn = getKey(data, 'urn');
  if (!isBlank(rawUrn)) {
    const text = asText(rawUrn);
    if (text === undefined || !URN_FORMAT.test(text)) errors.push(`${prefix}urn is invalid`);
    else urn = text;
  }

  let name: string | null = null;
  const magicLabel = opts.nested && urn !== null ? notApplicableUrnLabel(urn) : undefined;
  const school = urn !== null && !isNotApplicableUrn(urn) ? ctx.schools?.get(urn) : undefined;
  if (school) {
    name = school.name;
  } else if (magicLabel !== undefined) {
    name = magicLabel;
  } else {
    const rawName = getKey(data, 'name');
    const text = asText(rawName);
    if (isBlank(rawName)) errors.push(`${prefix}name can't be blank`);
    else if (text === undefined) errors.push(`${prefix}name is invalid`);
    else name = text;
  }

  let postcode: string | null = null;
  if (!opts.nested) {
    const rawPostcode = getKey(data, 'postcode');
    if (!isBlank(rawPostcode)) {
      const text = asText(rawPostcode);
      if (text === undefined || !isValidUkPostcode(text)) errors.push(`${prefix}postcode Enter a valid postcode (for example, BN1 1AA)`);
      else postcode = text.trim();
    }
  }

  if (errors.length > 0) return { ok: false, errors };
  if (school) {
    return { ok: true, value: { urn: school.urn, name: school.name, postcode: school.postcode, address: schoolAddress(school), school_id: Number(school.urn) } };
  }
  return { ok: true, value: { urn, name, postcode: opts.nested ? null : postcode, address: null, school_id: null } };
}

/**
 * Validates a placement update (PUT/PATCH …/placements/{id}; docs/reference/API-FACTS.md §10.5): the keys `urn`,
 * `name`, `postcode` present in `input` replace the stored ones (a JSON null clears the field), then
 * the merged placement is validated as a stand-alone placement ({@link validatePlacement}, not
 * nested), so it is linked to a school exactly when its (new or kept) URN names one. Takes the
 * stored placement; returns the new one (address re-derived) or the messages.
 */
export function validatePlacementUpdate(input: unknown, stored: PlacementInput, ctx: ValidationContext): ValidationResult<PlacementInput> {
  const data = isJsonObject(input) ? input : {};
  const merged: Record<string, unknown> = { urn: stored.urn, name: stored.name, postcode: stored.postcode };
  for (const key of ['urn', 'name', 'postcode']) if (hasKey(data, key)) merged[key] = data[key];
  return validatePlacement(merged, ctx, { nested: false });
}
