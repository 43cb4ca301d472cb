import { once } from 'node:events';
import { startCycle } from '@app/trainees/decider';
import type { Trainee } from '@app/trainees/record';
import type { EventStore } from '@app/event-sourcing';
import { listStatusOf, providerTraineesAsOf, utcDateOf, type TraineeReadModel } from '@app/trainees/read';
import { csvRecord, type CsvValue } from '@app/uploads/csv';

/**
 * The census return's columns (docs/operations.md "The list at an instant and the census report"), by canonical field name. Of the
 * personal fields only `trn` and `provider_trainee_id`, to reconcile by (docs/DESIGN.md ruling 19).
 */
export const CENSUS_COLUMNS: readonly (readonly [string, (t: Trainee, today: string) => CsvValue])[] = [
  ['trainee_id', (t) => t.trainee_id],
  ['trn', (t) => t.trn],
  ['provider_trainee_id', (t) => t.details.provider_trainee_id],
  ['ukprn', (t) => t.ukprn],
  // The list's `status` filter value the trainee matched on the census date (empty: none, a draft say).
  ['status', (t, today) => listStatusOf(t, today)],
  ['state', (t) => t.state],
  ['academic_cycle', (t) => startCycle(t.details)],
  ['training_route', (t) => t.details.training_route],
  ['course_qualification', (t) => t.details.course_qualification],
  ['course_level', (t) => t.details.course_level],
  ['course_education_phase', (t) => t.details.course_education_phase],
  ['course_subject_1', (t) => t.details.course_subject_1],
  ['study_mode', (t) => t.details.study_mode],
  ['course_year', (t) => t.details.course_year],
  ['itt_aim', (t) => t.details.itt_aim],
  ['itt_qualification_aim', (t) => t.details.itt_qualification_aim],
  ['funding_method', (t) => t.details.funding_method],
  ['fund_code', (t) => t.details.fund_code],
  ['training_initiative', (t) => t.details.training_initiative],
  ['additional_training_initiative', (t) => t.details.additional_training_initiative],
  ['itt_start_date', (t) => t.details.itt_start_date],
  ['itt_end_date', (t) => t.details.itt_end_date],
  ['trainee_start_date', (t) => t.details.trainee_start_date],
  ['defer_date', (t) => t.defer_date],
  ['reinstate_date', (t) => t.reinstate_date],
  ['withdrawal_date', (t) => t.withdrawal?.date ?? null],
  ['awarded_at', (t) => t.awarded_at],
  ['training_partner_ukprn', (t) => t.details.training_partner_ukprn],
  ['employing_school_urn', (t) => t.details.employing_school_urn],
  ['created_at', (t) => t.created_at],
  ['updated_at', (t) => t.updated_at],
];

export type CensusFormat = 'csv' | 'json';

/** A write per row costs more than the rows. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Streams the census of `ukprn` at `instant` as CSV (`@app/uploads/csv`) or JSON lines, in trainee-id order, holding one trainee and one
 * chunk at a time; trainees from `providerTraineesAsOf` (docs/DESIGN.md "A provider's trainees at an instant"). How many were written.
 */
export async function writeCensus(
  stores: { eventStore: EventStore; readModel: TraineeReadModel },
  ukprn: string,
  instant: Date,
  format: CensusFormat,
  out: NodeJS.WritableStream,
): Promise<number> {
  const today = utcDateOf(instant);
  let chunk = format === 'csv' ? csvRecord(CENSUS_COLUMNS.map(([name]) => name)) : '[';
  let count = 0;
  const flush = async (): Promise<void> => {
    if (!out.write(chunk)) await once(out, 'drain');
    chunk = '';
  };
  for await (const { trainee } of providerTraineesAsOf(stores.eventStore, stores.readModel, ukprn, instant)) {
    const values = CENSUS_COLUMNS.map(([, value]) => value(trainee, today) ?? null);
    chunk +=
      format === 'csv'
        ? csvRecord(values)
        : `${count === 0 ? '\n' : ',\n'}${JSON.stringify(Object.fromEntries(CENSUS_COLUMNS.map(([name], i) => [name, values[i]])))}`;
    count++;
    if (chunk.length >= CHUNK_CHARS) await flush();
  }
  if (format === 'json') chunk += '\n]\n';
  await flush();
  return count;
}
