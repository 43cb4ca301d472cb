/**
 * The wire checks of the lifecycle actions' bodies (docs/reference/API-FACTS.md §12.3–§12.5; docs/DESIGN.md ruling 7) from the
 * fields' rows: every rule needing neither the trainee nor today; the rest is the decider's.
 *
 * Where the facts leave room on the wire:
 * - a free text a reason needs counts as not entered when it is an array, object or boolean; any
 *   other free text is then `<field> is invalid`;
 * - a non-array list of reasons counts as absent;
 * - the other version's name of a field is an unknown key, ignored, so sending it counts as missing
 *   (the reference answers 500 for the withdrawal date there, docs/reference/API-FACTS.md §5.6).
 */
import { allowedWithdrawalReasons, parseIsoDateOrDateTime } from '@app/trainees/decider';
import { parseIsoDate } from '@app/calendar';
import {
  LIFECYCLE_FIELDS,
  blankMessageOf,
  codesOf,
  invalidMessageOf,
  versionFieldName,
  type ApiVersion,
  type LifecycleBody,
  type LifecycleField,
  type LifecycleFields,
  type LifecycleKind,
} from '@app/trainees/record';
import { traineeRulesFor } from '../rules';
import {
  Holds,
  ISO_DATE_OR_DATE_TIME_MAX_CHARS,
  IsIsoDate,
  IsIsoDateOrDateTime,
  IsText,
  MaxChars,
  MaxItems,
  NonScalar,
  Required,
  textOf,
} from './constraints';
import { isBlank } from './values';
import { WireObject, wrap, type WireField } from './wire-object';

/** A required free text: trimmed text, or null when blank or not text (a JSON number is read as its text). */
function requiredText(value: unknown): string | null {
  if (value instanceof NonScalar) return null;
  if (isBlank(value)) return null;
  const text = textOf(value);
  if (text === undefined) return null;
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/** The items of a list sent under `key`: the array's elements, or none (a non-array counts as absent). */
function itemsOf(object: Record<string, unknown>, key: string): unknown[] {
  const raw = object[key];
  return Array.isArray(raw) ? raw : [];
}

/** The string items of a list sent under `key`. */
function stringsOf(object: Record<string, unknown>, key: string): string[] {
  return itemsOf(object, key).filter((r): r is string => typeof r === 'string');
}

/** What one body's fields are read with in a version: their wire keys, and the withdrawal reasons its rules allow. */
interface BodyWire {
  readonly keyOf: (rowName: string) => string;
  /** The wire key of the body's reasons, if it has them. */
  readonly reasonsKey: string | undefined;
  /** The reasons allowed for a trigger as sent (an unknown one reads as the trainee's, §12.4). */
  readonly allowedFor: (trigger: unknown) => readonly string[];
  /** Every reason some trigger allows. */
  readonly anyAllowed: readonly string[];
}

const BODY_WIRES = new Map<string, BodyWire>();

/** How `body`'s fields are read in `version` (made once). */
function bodyWire(body: LifecycleBody, version: ApiVersion): BodyWire {
  const id = `${body}|${version}`;
  let wire = BODY_WIRES.get(id);
  if (!wire) {
    wire = newBodyWire(body, version);
    BODY_WIRES.set(id, wire);
  }
  return wire;
}

function newBodyWire(body: LifecycleBody, version: ApiVersion): BodyWire {
  const keyOf = (rowName: string): string => {
    const field = LIFECYCLE_FIELDS[body].find((f) => f.name === rowName);
    if (!field) throw new Error(`no lifecycle field ${rowName}`);
    return field.input.key ?? versionFieldName(field.key, version) ?? field.key;
  };
  const reasons = LIFECYCLE_FIELDS[body].find((f) => f.input.kind.kind === 'reasons');
  const safeguarding = traineeRulesFor(version).safeguardingConcernsReason;
  return {
    keyOf,
    reasonsKey: reasons && keyOf(reasons.name),
    allowedFor: (trigger) => allowedWithdrawalReasons(trigger, safeguarding),
    anyAllowed: [...new Set([...allowedWithdrawalReasons('provider', safeguarding), ...allowedWithdrawalReasons('trainee', safeguarding)])],
  };
}

/** The request schema's words of a field: its description and example. */
const documented = (field: LifecycleField) => ({ description: field.input.description, example: field.input.example });

/** The wire field of a lifecycle field in its body, or null where the version does not read it. */
function wireFieldOf(field: LifecycleField, kind: LifecycleKind, wire: BodyWire): WireField | null {
  const { input } = field;
  const base = { wire: wire.keyOf(field.name), canonical: field.key, ...(input.required ? { required: true } : {}) };
  const blank = (label: string) => `${label} ${blankMessageOf(input)}`;
  const invalid = (label: string) => `${label} ${invalidMessageOf(input)}`;
  const required = input.required ? [Required({ message: blank })] : [];
  const dated = { maxLength: ISO_DATE_OR_DATE_TIME_MAX_CHARS, ...documented(field) };
  switch (kind.kind) {
    case 'date':
      return {
        ...base,
        checks: [...required, IsIsoDate({ message: invalid })],
        convert: (v) => parseIsoDate(v),
        schema: { type: input.required ? 'string' : ['string', 'null'], format: 'date', ...dated },
      };
    case 'date_or_date_time':
      return {
        ...base,
        checks: [...required, IsIsoDateOrDateTime(invalid)],
        convert: (v) => parseIsoDateOrDateTime(v),
        schema: { type: input.required ? 'string' : ['string', 'null'], ...dated },
      };
    case 'text':
      return {
        ...base,
        checks: [IsText(), MaxChars(kind.max)],
        convert: (v) => textOf(v),
        schema: { type: ['string', 'null'], maxLength: kind.max, ...documented(field) },
      };
    case 'reason_text':
      return reasonTextField(base, field, kind, wire);
    case 'listed': {
      const codes: readonly string[] = codesOf(kind.list);
      return {
        ...base,
        checks: [Holds(`listed:${kind.list}`, (v) => typeof v === 'string' && codes.includes(v), invalid)],
        convert: (v) => v,
        schema: { type: 'string', enum: [...codes], ...documented(field) },
      };
    }
    case 'reasons':
      return reasonsField(base, field, kind, wire);
  }
}

/**
 * A free text the reasons sent may need (docs/reference/API-FACTS.md §12.4): required when one of
 * them does, at most its length; a version none of whose reasons needs it does not read it.
 */
function reasonTextField(
  base: Pick<WireField, 'wire' | 'canonical' | 'required'>,
  field: LifecycleField,
  kind: Extract<LifecycleKind, { kind: 'reason_text' }>,
  wire: BodyWire,
): WireField | null {
  if (wire.reasonsKey === undefined || !wire.anyAllowed.some(kind.neededBy)) return null;
  const reasonsKey = wire.reasonsKey;
  return {
    ...base,
    checks: [
      Holds(
        `given:${field.key}`,
        (v, o) => !stringsOf(o, reasonsKey).some(kind.neededBy) || requiredText(v) !== null,
        (label) => `${label} ${blankMessageOf(field.input)}`,
      ),
      MaxChars(kind.max),
    ],
    convert: (v) => requiredText(v),
    schema: { type: ['string', 'null'], maxLength: kind.max, ...documented(field) },
  };
}

/**
 * The withdrawal reasons (docs/reference/API-FACTS.md §12.4; docs/DESIGN.md rulings 7 and 14): at
 * least one, each allowed for the trigger sent (the version's list, with or without
 * safeguarding_concerns), at most the row's maximum.
 */
function reasonsField(
  base: Pick<WireField, 'wire' | 'canonical' | 'required'>,
  field: LifecycleField,
  kind: Extract<LifecycleKind, { kind: 'reasons' }>,
  wire: BodyWire,
): WireField {
  const { input } = field;
  const key = base.wire;
  const triggerKey = wire.keyOf(kind.trigger);
  const triggers = LIFECYCLE_FIELDS[input.body].find((f) => f.name === kind.trigger)?.input.kind;
  const knownTriggers: readonly string[] = triggers?.kind === 'listed' ? codesOf(triggers.list) : [];
  const allowed = (object: Record<string, unknown>): readonly string[] => {
    const trigger = object[triggerKey];
    return wire.allowedFor(typeof trigger === 'string' && knownTriggers.includes(trigger) ? trigger : undefined);
  };
  return {
    ...base,
    checks: [
      Holds(
        'reasonsGiven',
        (_v, o) => itemsOf(o, key).length > 0,
        (label) => `${label} ${blankMessageOf(input)}`,
      ),
      Holds(
        'reasonsForTrigger',
        (_v, o) => {
          const reasons = itemsOf(o, key);
          const ok = allowed(o);
          return reasons.length === 0 || reasons.every((r) => typeof r === 'string' && ok.includes(r));
        },
        (label) => `${label} ${invalidMessageOf(input)}`,
      ),
      MaxItems(kind.max, kind.noun),
    ],
    prepare: (v) => (Array.isArray(v) ? v.map(wrap) : wrap(v)),
    convert: () => undefined,
    schema: {
      type: 'array',
      minItems: 1,
      maxItems: kind.max,
      items: { type: 'string', enum: wire.anyAllowed },
      ...documented(field),
    },
  };
}

/** The name of a body's wire object and request schema: `DeferralInput`, `WithdrawalInput`, `RecommendationInput`. */
const inputName = (body: LifecycleBody): string => `${body[0].toUpperCase()}${body.slice(1)}Input`;

const BY_VERSION = new Map<string, WireObject<LifecycleFields<LifecycleBody>>>();

/** The wire object of `body` in `version`: its fields in the order of the body (their keys in the version). */
export function lifecycleWireFor<B extends LifecycleBody>(body: B, version: ApiVersion): WireObject<LifecycleFields<B>> {
  const id = `${body}|${version}`;
  let object = BY_VERSION.get(id);
  if (!object) {
    const wire = bodyWire(body, version);
    const fields = LIFECYCLE_FIELDS[body].flatMap((f) => wireFieldOf(f, f.input.kind, wire) ?? []);
    object = new WireObject<LifecycleFields<LifecycleBody>>(inputName(body), fields);
    BY_VERSION.set(id, object);
  }
  return object as WireObject<LifecycleFields<B>>;
}

/**
 * The typed fields of `body` from its checked fields and the body's `data`: the string reasons in
 * the order sent without repeats, and each text the reasons may need only when one of them does
 * (null otherwise). A body without reasons is as checked.
 */
export function lifecycleFieldsOf<B extends LifecycleBody>(
  body: B,
  checked: LifecycleFields<B>,
  data: Record<string, unknown>,
  version: ApiVersion,
): LifecycleFields<B> {
  const reasonsKey = bodyWire(body, version).reasonsKey;
  const reasonsField = LIFECYCLE_FIELDS[body].find((f) => f.input.kind.kind === 'reasons');
  if (reasonsKey === undefined || !reasonsField) return checked;
  const reasons = [...new Set(stringsOf(data, reasonsKey))];
  const sent = checked as Readonly<Record<string, unknown>>;
  const fields: Record<string, unknown> = { ...checked, [reasonsField.key]: reasons };
  for (const f of LIFECYCLE_FIELDS[body]) {
    const kind = f.input.kind;
    if (kind.kind === 'reason_text') fields[f.key] = reasons.some(kind.neededBy) ? (sent[f.key] ?? null) : null;
  }
  return fields as LifecycleFields<B>;
}
