/**
 * The wire checks of a trainee create or update body (POST /trainees, PUT/PATCH /trainees/{id};
 * docs/reference/API-FACTS.md §6.2, §6.4, §6.5, §6.9, §6.10), per version: the trainee record's
 * table (libs/trainees/record/trainee.record.ts) as wire fields, and the `disabilityN` keys read
 * beside it. Requiredness and every rule that needs another field, the stored trainee or today are
 * the decider's record rules.
 */
import type { InputProblem, MessagePath } from '@app/trainees/decider';
import {
  DISABILITY_KEYS_MAX,
  TEXT_MAX_CHARS,
  TRAINEE_RECORD,
  inputKindOf,
  type ApiVersion,
  type FieldInput,
  type TraineeFields,
} from '@app/trainees/record';
import { isBlank, textOf } from './constraints';
import { degreeWire } from './degree.wire';
import { NESTED_PLACEMENT_WIRE } from './placement.wire';
import { charLength } from './values';
import { wireFieldOf } from './wire-fields';
import { WireObject, type WireField } from './wire-object';

/** `disability` followed by digits: every such key is stored and echoed (docs/reference/API-FACTS.md §6.7). */
export const DISABILITY_KEY = /^disability\d+$/;

/** Most digits of a `disabilityN` key's number (`disability99`; docs/DESIGN.md ruling 14). */
const DISABILITY_KEY_MAX_DIGITS = 2;

/**
 * `disabilityN` keys: text (a JSON number as its text), reported as `disabilityN is invalid`
 * otherwise; at most {@link DISABILITY_KEYS_MAX} keys, numbered with at most two digits, each value at
 * most {@link TEXT_MAX_CHARS} characters (docs/DESIGN.md ruling 14).
 */
const DISABILITIES = {
  into: 'disabilities',
  matches: (key: string) => DISABILITY_KEY.test(key),
  maxKeys: DISABILITY_KEYS_MAX,
  tooManyKeys: `disabilities is too long (maximum is ${DISABILITY_KEYS_MAX} disabilities)`,
  check(key: string, value: unknown, problems: InputProblem[], at: MessagePath): unknown {
    if (key.length > 'disability'.length + DISABILITY_KEY_MAX_DIGITS) {
      problems.push({ path: [...at, 'disabilities'], message: 'disabilities is invalid (keys are disability1 to disability99)' });
      return undefined;
    }
    if (value === null) return null;
    if (isBlank(value)) return '';
    const t = textOf(value);
    if (t === undefined || charLength(t) > TEXT_MAX_CHARS) {
      const message = t === undefined ? `${key} is invalid` : `${key} is too long (maximum is ${TEXT_MAX_CHARS} characters)`;
      problems.push({ path: [...at, 'disabilities', Number(key.slice('disability'.length))], message });
      return undefined;
    }
    return t;
  },
};

const BY_VERSION = new Map<string, WireObject<TraineeFields>>();

/**
 * The trainee wire object of `version`: a create body's `data`, or (`update`) an update body's,
 * which does not read the nested degrees and placements (docs/reference/API-FACTS.md §7.3).
 */
export function traineeWire(version: ApiVersion, mode: 'create' | 'update' = 'create'): WireObject<TraineeFields> {
  const key = `${version}|${mode}`;
  let wire = BY_VERSION.get(key);
  if (!wire) {
    const items = {
      degrees: { wire: degreeWire(version) as WireObject<unknown>, schema: 'DegreeInput', noun: 'degrees' },
      placements: { wire: NESTED_PLACEMENT_WIRE as WireObject<unknown>, schema: 'PlacementInput', noun: 'placements' },
    };
    const rows = TRAINEE_RECORD.filter((row): row is Extract<(typeof TRAINEE_RECORD)[number], { input: FieldInput }> => 'input' in row)
      // An update sends what changes: no nested items, nothing required on the wire (the merged record's rules decide).
      .filter((row) => mode === 'create' || inputKindOf(row.input, version).kind !== 'items')
      .map((row) => (mode === 'create' ? row : { ...row, input: { ...row.input, required: false } }));
    const fields = rows.map((row) => wireFieldOf(row, version, { items })).filter((f): f is WireField => f !== null);
    wire = new WireObject<TraineeFields>(mode === 'create' ? 'TraineeInput' : 'TraineeUpdateInput', fields, DISABILITIES);
    BY_VERSION.set(key, wire);
  }
  return wire;
}
