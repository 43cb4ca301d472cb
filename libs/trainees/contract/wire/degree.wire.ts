/**
 * The wire checks of a degree body and a nested `degrees_attributes` item (docs/reference/API-FACTS.md §11.1–§11.4); what depends on
 * other fields is the decider's.
 */
import { DEGREE_MESSAGES } from '@app/trainees/decider';
import { DEGREE_RECORD, type ApiVersion, type DegreeFields, type FieldInput } from '@app/trainees/record';
import { wireFieldOf } from './wire-fields';
import { WireObject, type WireField } from './wire-object';

/** The degree's messages where the facts give their own: an unknown subject is a missing one (§11.3); a bad year (§11.4). */
const MESSAGES = { subject: () => DEGREE_MESSAGES.subjectMissing, graduation_year: () => DEGREE_MESSAGES.graduationYearInvalid };

const BY_VERSION = new Map<ApiVersion, WireObject<DegreeFields>>();

/** The degree wire object of `version` (a degree body's `data`, or one nested item). */
export function degreeWire(version: ApiVersion): WireObject<DegreeFields> {
  let wire = BY_VERSION.get(version);
  if (!wire) {
    const fields = DEGREE_RECORD.filter((row): row is Extract<(typeof DEGREE_RECORD)[number], { input: FieldInput }> => 'input' in row)
      .map((row) => wireFieldOf(row, version, { messages: MESSAGES }))
      .filter((f): f is WireField => f !== null);
    wire = new WireObject<DegreeFields>('DegreeInput', fields);
    BY_VERSION.set(version, wire);
  }
  return wire;
}
