import type { PlacementInput } from '../trainee.details';
import { isNotApplicableUrn, notApplicableUrnLabel } from '../../reference-data';
import type { ValidationContext, ValidationResult } from './validation-result';
import { asText, getKey, hasKey, isBlank, isJsonObject } from './values';

/** Prefix of nested placement messages in a trainee create (API-FACTS §5.2). */
export const NESTED_PLACEMENT_PREFIX = 'placements_attributes ';

/** Exactly six digits (API-FACTS §10.1). */
const URN_FORMAT = /^[0-9]{6}$/;

/**
 * A full UK postcode: outward code (A9, A99, AA9, AA99, A9A, AA9A with the Royal Mail letter
 * restrictions) or GIR, optional white space, inward code (digit + two letters, no C I K M O V).
 * Case-insensitive.
 */
const UK_POSTCODE = /^(?:GIR\s*0AA|[A-PR-UWYZ](?:[0-9][0-9]?|[A-HK-Y][0-9][0-9]?|[0-9][A-HJKPS-UW]|[A-HK-Y][0-9][ABEHMNPRVWXY])\s*[0-9][ABD-HJLNP-UW-Z]{2})$/i;

/** True when `postcode` is a valid full UK postcode (API-FACTS §10.1), e.g. `BN1 1AA`, `sw1a1aa`. */
export function isValidUkPostcode(postcode: string): boolean {
  return UK_POSTCODE.test(postcode.trim());
}

/**
 * The derived placement `address` (API-FACTS §10.3, without a school register): the non-empty parts
 * of `URN <urn>` and the postcode joined with ", " (`URN 123456, GU1 1AA`, or just the postcode);
 * null when there is nothing, and always null for the not-applicable URNs 900000/900010/900020/900030.
 */
export function placementAddress(urn: string | null | undefined, postcode: string | null | undefined): string | null {
  if (isNotApplicableUrn(urn)) return null;
  const parts: string[] = [];
  if (urn && urn.trim() !== '') parts.push(`URN ${urn}`);
  if (postcode && postcode.trim() !== '') parts.push(postcode);
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * Validates one placement (API-FACTS §10.1, §6.10). Takes the request's placement object (any JSON
 * value; a non-object counts as `{}`), the context, and `nested` (true inside a trainee create's
 * `placements_attributes`). Returns the placement to store, or the messages.
 *
 * - `urn`: optional; when present exactly six digits, else `urn is invalid`.
 * - `name`: required (`name can't be blank`). There is no school register yet, so the "unless the
 *   URN matches a known school" exemption of §10.1 never applies.
 * - `postcode`: optional; when present a valid full UK postcode, else
 *   `postcode Enter a valid postcode (for example, BN1 1AA)`.
 * - Nested items (§6.10): `postcode` is dropped, and a not-applicable URN replaces the name with its
 *   label from `placement_magic_urn.json`; messages carry the prefix `placements_attributes `.
 * - `address` is derived with {@link placementAddress}.
 * Keys are read as sent (`urn` and `name` are not trimmed); a JSON number is read as its text.
 */
export function validatePlacement(input: unknown, ctx: ValidationContext, opts: { nested: boolean }): ValidationResult<PlacementInput> {
  void ctx;
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
  if (magicLabel !== undefined) {
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
  return { ok: true, value: { urn, name, postcode, address: placementAddress(urn, postcode) } };
}

/**
 * Validates a placement update (PUT/PATCH …/placements/{id}; API-FACTS §10.5): the keys `urn`,
 * `name`, `postcode` present in `input` replace the stored ones (a JSON null clears the field), then
 * the merged placement is validated as a stand-alone placement ({@link validatePlacement}, not
 * nested). Takes the stored placement; returns the new one (address re-derived) or the messages.
 */
export function validatePlacementUpdate(input: unknown, stored: PlacementInput, ctx: ValidationContext): ValidationResult<PlacementInput> {
  const data = isJsonObject(input) ? input : {};
  const merged: Record<string, unknown> = { urn: stored.urn, name: stored.name, postcode: stored.postcode };
  for (const key of ['urn', 'name', 'postcode']) if (hasKey(data, key)) merged[key] = data[key];
  return validatePlacement(merged, ctx, { nested: false });
}
