/**
 * What the trainee record's table (trainee.record.ts; docs/DESIGN.md "The record tables") gives the
 * rest of the service besides its rows and the stored record's type: the typed fields of a write
 * body, the stored record's names, and the order of a 422's messages about the fields. Derived from
 * the rows, once, at module load; nothing here names a field of the table.
 */
import type { DegreeFields } from './degree.record';
import { messageOrderOf, storedNamesOf, type FieldsOf } from './field-table';
import type { PlacementFields } from './placement.record';
import { TRAINEE_RECORD, type TraineeDetails } from './trainee.record';

/**
 * A trainee create or update body as the decider receives it, after the wire checks: one member
 * per field a body may send (docs/reference/API-FACTS.md §6.2), in canonical names, typed by the
 * convention of field-table.ts (`undefined`: not sent or refused; null: JSON null; `''`: blank),
 * and every `disabilityN` key sent (§6.7), its code as text, `''` when blank, null when null.
 */
export type TraineeFields = FieldsOf<typeof TRAINEE_RECORD, { degrees: DegreeFields; placements: PlacementFields }> & {
  disabilities?: Readonly<Record<string, string | null>>;
};

/** The names of the stored record's members ({@link TraineeDetails}): the table's, in its order, then `disabilities`. */
export const TRAINEE_DETAILS_NAMES: readonly (keyof TraineeDetails)[] = [
  ...(storedNamesOf(TRAINEE_RECORD) as (keyof TraineeDetails)[]),
  'disabilities',
];

/** The stored record's members a create or update body may send: the merged record of an update starts from them. */
export const TRAINEE_STORED_INPUTS: readonly (keyof TraineeDetails & keyof TraineeFields)[] = TRAINEE_DETAILS_NAMES.filter((name) =>
  TRAINEE_RECORD.some((row) => row.name === name && 'input' in row),
) as (keyof TraineeDetails & keyof TraineeFields)[];

/** The rank of the `disabilityN` keys' messages (path `disabilities`) among the fields' (§6.3 lists them after ethnicity). */
const DISABILITIES_MESSAGE_RANK = 27;

/**
 * The order of a trainee body's messages about its fields (docs/reference/API-FACTS.md §6.3): the
 * input rows by their `messageRank`, the `disabilityN` keys (path `disabilities`) among them.
 */
export const TRAINEE_FIELD_MESSAGE_ORDER: readonly string[] = messageOrderOf(TRAINEE_RECORD, {
  disabilities: DISABILITIES_MESSAGE_RANK,
});
