/**
 * The wire checks of a trainee create or update body per version (docs/reference/API-FACTS.md §6.2–§6.10): the record table's rows
 * and the `disabilityN` keys. Rules needing another field, the stored trainee or today are the decider's.
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

/** `disabilityN` keys: free text, bounded in count, digits and length (docs/DESIGN.md ruling 14). */
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

/** A create body's `data` in `version`, or an update's, which reads no nested items (docs/reference/API-FACTS.md §7.3). */
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
