/**
 * The rules of a school placement (docs/reference/API-FACTS.md §10, §6.10; docs/DESIGN.md ruling
 * 13): school linking, the name a placement needs, and its derived address. The wire checks (the
 * URN's and the postcode's formats, JSON types) are the contract's (libs/trainees/contract). Pure
 * and total.
 */
import { isNotApplicableUrn, notApplicableUrnLabel, type PlacementInput, type School, type PlacementFields } from '@app/trainees/record';
import { MessageList, type InputProblem, type MessagePath } from './request-data';
import { recordResult, type ValidationResult } from './validation-result';

/** Prefix of nested placement messages in a trainee create (docs/reference/API-FACTS.md §5.2). */
export const NESTED_PLACEMENT_PREFIX = 'placements_attributes ';

/** The order in which a placement's messages are answered. */
export const PLACEMENT_MESSAGE_ORDER: readonly string[] = ['urn', 'name', 'postcode'];

/** What the placement rules need: the schools of the directory for the URNs the input names. */
export interface PlacementRuleContext {
  schools?: ReadonlyMap<string, School>;
}

function isBlank(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

/**
 * The derived placement `address` of a school of the directory (docs/reference/API-FACTS.md §10.3):
 * `URN <urn>, <town>, <postcode>`, leaving out empty parts.
 */
export function schoolAddress(school: School): string {
  return [`URN ${school.urn}`, school.town, school.postcode].filter((p) => p && p.trim() !== '').join(', ');
}

/**
 * The derived `address` of a placement the directory does not know (docs/reference/API-FACTS.md
 * §10.3; docs/DESIGN.md ruling 13): the non-empty parts of `URN <urn>` and the postcode joined with
 * ", " (`URN 123456, GU1 1AA`, or just the postcode); null when there is neither, and always null
 * for the four not-applicable URNs.
 */
export function placementAddress(urn: string | null, postcode: string | null): string | null {
  if (urn !== null && isNotApplicableUrn(urn)) return null;
  const parts = [urn ? `URN ${urn}` : null, postcode].filter((p): p is string => p !== null && p.trim() !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * One placement's rules, adding messages under `at` (prefixed `placements_attributes ` when
 * `nested`, §5.2); returns the placement to store, or null.
 *
 * - A URN of a school in the directory links the placement (§10.2): its URN, name and postcode are
 *   the school's, `address` is derived from it, and `name` need not be sent.
 * - Nested items only (§6.10): a not-applicable URN replaces the name with its label from
 *   `placement_magic_urn.json`.
 * - Otherwise `name` is required (`name can't be blank`); the name and postcode sent are kept and
 *   the address is {@link placementAddress} (ruling 13: nested postcodes are kept too).
 */
export function checkPlacement(
  data: PlacementFields,
  ctx: PlacementRuleContext,
  opts: { nested: boolean },
  messages: MessageList,
  at: MessagePath,
): PlacementInput | null {
  const prefix = opts.nested ? NESTED_PLACEMENT_PREFIX : '';
  const wireRefused = (field: keyof PlacementFields): boolean => messages.has([...at, field]);
  const urn = isBlank(data.urn) ? null : data.urn;
  const school = urn !== null && !isNotApplicableUrn(urn) ? ctx.schools?.get(urn) : undefined;
  const magicLabel = opts.nested && urn !== null ? notApplicableUrnLabel(urn) : undefined;

  let name: string | null = null;
  if (school) name = school.name;
  else if (magicLabel !== undefined) name = magicLabel;
  else if (!isBlank(data.name)) name = data.name;
  else if (!wireRefused('name')) messages.add([...at, 'name'], `${prefix}name can't be blank`);

  if (messages.has(at)) return null;
  if (school) {
    return { urn: school.urn, name: school.name, postcode: school.postcode, address: schoolAddress(school), school_id: Number(school.urn) };
  }
  const postcode = isBlank(data.postcode) ? null : data.postcode;
  return { urn, name, postcode, address: placementAddress(urn, postcode), school_id: null };
}

/**
 * The rules of a placement (POST …/placements; docs/reference/API-FACTS.md §10.1–§10.3). Takes the
 * typed fields and the wire problems, and the schools the URN names. Returns the placement to store
 * or every message in the order of {@link PLACEMENT_MESSAGE_ORDER}.
 */
export function validatePlacement(
  data: PlacementFields,
  problems: readonly InputProblem[],
  ctx: PlacementRuleContext,
  opts: { nested: boolean } = { nested: false },
): ValidationResult<PlacementInput> {
  const messages = new MessageList(problems);
  const placement = checkPlacement(data, ctx, opts, messages, []);
  return recordResult(placement, messages, PLACEMENT_MESSAGE_ORDER);
}

/**
 * The rules of a placement update (PUT/PATCH …/placements/{id}; docs/reference/API-FACTS.md §10.5):
 * the fields `urn`, `name`, `postcode` sent replace the stored ones (a JSON null clears the field; a
 * value the wire checks refused leaves the stored one), then the merged placement is checked as a
 * stand-alone placement, so it is linked to a school exactly when its (new or kept) URN names one.
 * Returns the new placement (address re-derived) or the messages.
 */
export function validatePlacementUpdate(
  data: PlacementFields,
  problems: readonly InputProblem[],
  stored: PlacementInput,
  ctx: PlacementRuleContext,
): ValidationResult<PlacementInput> {
  const merged: PlacementFields = { urn: stored.urn, name: stored.name, postcode: stored.postcode };
  for (const key of ['urn', 'name', 'postcode'] as const) if (data[key] !== undefined) merged[key] = data[key];
  return validatePlacement(merged, problems, ctx, { nested: false });
}
