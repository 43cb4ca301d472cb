/** What the trainee table gives besides its rows (docs/DESIGN.md "The record tables"), derived at module load; no field is named here. */
import type { DegreeFields } from './degree.record';
import { messageOrderOf, storedNamesOf, type FieldsOf } from './field-table';
import type { PlacementFields } from './placement.record';
import { TRAINEE_RECORD, type TraineeDetails } from './trainee.record';

/** A create or update body after the wire checks (docs/reference/API-FACTS.md §6.2, §6.7), typed as field-table.ts says. */
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

/** The order of a trainee body's messages about its fields (docs/reference/API-FACTS.md §6.3). */
export const TRAINEE_FIELD_MESSAGE_ORDER: readonly string[] = messageOrderOf(TRAINEE_RECORD, {
  disabilities: DISABILITIES_MESSAGE_RANK,
});
