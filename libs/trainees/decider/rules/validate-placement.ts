/** The rules of a school placement (docs/reference/API-FACTS.md §10, §6.10; docs/DESIGN.md ruling 13). Pure and total. */
import { isNotApplicableUrn, notApplicableUrnLabel, type PlacementInput, type School, type PlacementFields } from '@app/trainees/record';
import { MessageList, type InputProblem, type MessagePath } from './request-data';
import { recordResult, type ValidationResult } from './validation-result';

/** Prefix of nested placement messages in a trainee create (docs/reference/API-FACTS.md §5.2). */
export const NESTED_PLACEMENT_PREFIX = 'placements_attributes ';

/** The order in which a placement's messages are answered. */
export const PLACEMENT_MESSAGE_ORDER: readonly string[] = ['urn', 'name', 'postcode'];

/** The directory's schools of the URNs the input names. */
export interface PlacementRuleContext {
  schools?: ReadonlyMap<string, School>;
}

function isBlank(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

/** A directory school's placement `address` (docs/reference/API-FACTS.md §10.3), empty parts left out. */
export function schoolAddress(school: School): string {
  return [`URN ${school.urn}`, school.town, school.postcode].filter((p) => p && p.trim() !== '').join(', ');
}

/** An unknown school's placement `address` (docs/reference/API-FACTS.md §10.3; docs/DESIGN.md ruling 13); null for a not-applicable URN. */
export function placementAddress(urn: string | null, postcode: string | null): string | null {
  if (urn !== null && isNotApplicableUrn(urn)) return null;
  const parts = [urn ? `URN ${urn}` : null, postcode].filter((p): p is string => p !== null && p.trim() !== '');
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * One placement's rules, messages under `at` (prefixed when `nested`, §5.2): a known school's URN links it (§10.2); a nested item's
 * not-applicable URN names it (§6.10); else `name` is required. Returns the placement to store, or null.
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

/** The rules of a placement (docs/reference/API-FACTS.md §10.1–§10.3): the placement to store, or every message in order. */
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
 * The rules of a placement update (docs/reference/API-FACTS.md §10.5): the fields sent replace the stored ones (null clears), then
 * the merge is checked as a new placement, so it is linked exactly when its URN names a school.
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
