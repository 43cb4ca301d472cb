/** The answered fields of trainees, placements and degrees, from their record tables (docs/DESIGN.md "The record tables"). */
import {
  DEGREE_RECORD,
  PLACEMENT_RECORD,
  TRAINEE_RECORD,
  lifecycleAnswerOf,
  type ApiVersion,
  type Degree,
  type FieldAnswer,
  type FieldRow,
  type Placement,
  type Trainee,
} from '@app/trainees/record';

export type { JsonSchema } from '@app/trainees/record';

/** One field of an answer: the row's canonical name and names per version, and what the answer holds. */
export interface OutputField<T> extends FieldAnswer<T> {
  name: string;
  names?: FieldRow<T>['names'];
  value: (record: T) => unknown;
}

/** The answered rows of `table`; a row without its own value answers `stored(name)`. */
function answersOf<T>(table: readonly FieldRow<T>[], stored: (name: string) => (record: T) => unknown): readonly OutputField<T>[] {
  return table.flatMap((row) =>
    row.answer ? [{ name: row.name, names: row.names, ...row.answer, value: row.answer.value ?? stored(row.name) }] : [],
  );
}

/** In answer order (the `disabilityN` keys go after `disability2`); a lifecycle field answers what its action recorded. */
export const TRAINEE_FIELDS: readonly OutputField<Trainee>[] = answersOf<Trainee>(
  TRAINEE_RECORD,
  (name) => lifecycleAnswerOf(name) ?? ((t) => t.details[name as keyof Trainee['details']]),
);
/** The placement's answered fields in answer order. */
export const PLACEMENT_FIELDS: readonly OutputField<Placement>[] = answersOf<Placement>(
  PLACEMENT_RECORD,
  (name) => (p) => p[name as keyof Placement],
);
/** The degree's answered fields in answer order. */
export const DEGREE_FIELDS: readonly OutputField<Degree>[] = answersOf<Degree>(DEGREE_RECORD, (name) => (d) => d[name as keyof Degree]);

/** A field's name in `version`, or null when the version does not answer it. */
function outputName(field: OutputField<unknown>, version: ApiVersion): string | null {
  if (field.only && !field.only.includes(version)) return null;
  if (field.asIs) return field.name;
  const named = field.names?.[version];
  return named === undefined ? field.name : named;
}

/** The fields `version` answers, with their names in the version. */
export function fieldsOf<T>(fields: readonly OutputField<T>[], version: ApiVersion): readonly (readonly [string, OutputField<T>])[] {
  return fields.flatMap((f) => {
    const name = outputName(f as OutputField<unknown>, version);
    return name === null ? [] : [[name, f] as const];
  });
}
