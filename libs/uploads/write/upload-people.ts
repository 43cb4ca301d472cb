/**
 * Who each checked row of an upload is about, for the uploads page's summary before a submit: the names and the provider's own id,
 * personal data the page shows (its answers are `no-store`) and nothing logs. The API answers none of it.
 */
import { versionFieldName } from '@app/trainees/record';
import type { Caller } from '@app/trainees/write';
import type { UploadKind } from '@app/uploads/decider';
import { datedRecords } from './recommend-rows';
import { ownUpload } from './upload-operations';
import { readUploadTable, uploadVersion } from './upload-rows';
import { readUploadFile } from './upload-stream';
import type { UploadPorts } from './upload.ports';

/** A checked row's person: as the file gives them (new trainees), or as the trainee's record has them (recommendations). */
export interface RowPerson {
  row: number;
  first_names: string;
  last_name: string;
  provider_trainee_id: string;
}

const NAMED = ['first_names', 'last_name', 'provider_trainee_id'] as const;

/**
 * The person of each row the check read of the caller's upload `uploadId`, in row order: a new trainee's from the file's cells; a
 * recommendation's from the record of the provider's trainee it names, else from the file's cells. [] once the file is purged.
 * Errors: `UploadNotFound`.
 */
export async function uploadRowPeople(ports: UploadPorts, caller: Caller, uploadId: string, kind: UploadKind): Promise<RowPerson[]> {
  const state = await ownUpload(ports, caller, uploadId, kind);
  const file = await readUploadFile(ports, uploadId, state);
  if (file === null) return [];
  const version = uploadVersion(state.api_version);
  const table = await readUploadTable(kind, file, version);
  const checked = new Set(state.rows);
  const records = (kind === 'add_trainees' ? table.records : datedRecords(table)).filter((r) => checked.has(r.row));
  const people: RowPerson[] = [];
  for (const { row, values } of records) {
    const cell = (field: (typeof NAMED)[number]) => values[versionFieldName(field, version) ?? field] ?? '';
    const person: RowPerson = {
      row,
      first_names: cell('first_names'),
      last_name: cell('last_name'),
      provider_trainee_id: cell('provider_trainee_id'),
    };
    if (kind === 'recommend_for_award' && values.trainee_id) {
      const trainee = await ports.trainees.trainees.getTrainee(values.trainee_id);
      if (trainee?.ukprn === caller.ukprn) for (const field of NAMED) person[field] = String(trainee.details[field] ?? '');
    }
    people.push(person);
  }
  return people;
}
