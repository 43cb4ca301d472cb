/**
 * A recommendations file: the provider's trainees that can be recommended for QTS or EYTS, one a
 * row, with an empty `qts_standards_met_date` column the provider fills in (`YYYY-MM-DD`). Each
 * dated row is checked and written through the recommendation's own path, `decide` with
 * `RecommendForAward` on the trainee's state (`handleTraineeCommand` to write; libs/trainees/write),
 * so a row is refused as `POST …/recommend-for-qts` would refuse it, with the same messages. Rows
 * without a date are left out: the trainee is not recommended.
 */
import type { WorkPace } from './background-pace';
import { DomainError } from '@app/event-sourcing';
import { contractFor } from '@app/trainees/contract';
import { decide, ValidationFailed, type TraineeState } from '@app/trainees/decider';
import type { ApiVersion, Trainee } from '@app/trainees/record';
import { handleTraineeCommand, loadTraineeState, type Caller } from '@app/trainees/write';
import { csvText, parseUploadCsv, UploadFileRefused, type UploadRecord, type UploadTable } from '@app/uploads/csv';
import {
  UPLOAD_BYTES_MAX,
  UPLOAD_RECORDS_MAX,
  UPLOAD_ROWS_MAX,
  type RowError,
  type RowMessage,
  type RowOutcomeInput,
  type RowTarget,
} from '@app/uploads/decider';
import type { UploadPorts } from './upload.ports';

/** The date column: when the trainee met the QTS or EYTS standards. */
export const RECOMMEND_DATE_COLUMN = 'qts_standards_met_date';
/** Columns that name the trainee: `trainee_id` finds it, the others, when filled, must match its record. */
const IDENTITY_COLUMNS = ['provider_trainee_id', 'trn', 'first_names', 'last_name'] as const;
/** The recommendations file's columns, in order. */
export const RECOMMEND_COLUMNS = ['trainee_id', ...IDENTITY_COLUMNS, RECOMMEND_DATE_COLUMN];

/** States a trainee can be recommended from (docs/DESIGN.md ruling 8). */
const RECOMMENDABLE = new Set(['submitted_for_trn', 'trn_received']);

/** The dated records of a recommendations file: the rows to recommend. */
export function datedRecords(table: UploadTable): UploadRecord[] {
  return table.records.filter((r) => !r.blank && r.values[RECOMMEND_DATE_COLUMN] !== '');
}

/** A recommendations file read (refused as a whole, `UploadFileRefused`, also when no row has a date). */
export async function readRecommendFile(body: Uint8Array): Promise<UploadTable> {
  const table = await parseUploadCsv(body, {
    columns: RECOMMEND_COLUMNS,
    maxBytes: UPLOAD_BYTES_MAX,
    maxRows: UPLOAD_ROWS_MAX,
    maxRecords: UPLOAD_RECORDS_MAX,
  });
  if (datedRecords(table).length === 0) {
    throw new UploadFileRefused('no_rows', `The selected file must give a ${RECOMMEND_DATE_COLUMN} for at least one trainee`);
  }
  return table;
}

/** The recommendations template of `ukprn`: a row per trainee that can be recommended, its date empty. */
export async function recommendTemplateCsv(ports: UploadPorts, ukprn: string): Promise<string> {
  const rows = recommendTemplateRows(await ports.providerTrainees(ukprn));
  return csvText([RECOMMEND_COLUMNS, ...rows.map((r) => RECOMMEND_COLUMNS.map((c) => r[c]))]);
}

/** The rows of the template: each trainee that can be recommended, its date empty. */
function recommendTemplateRows(trainees: readonly Trainee[]): Record<string, string>[] {
  return trainees
    .filter((t) => RECOMMENDABLE.has(t.state))
    .map((t) => ({
      trainee_id: t.trainee_id,
      provider_trainee_id: String(t.details.provider_trainee_id ?? ''),
      trn: t.trn ?? '',
      first_names: String(t.details.first_names ?? ''),
      last_name: String(t.details.last_name ?? ''),
      [RECOMMEND_DATE_COLUMN]: '',
    }));
}

/** The caller's trainee a row names, and its state; messages when it names none or another provider's. */
async function rowTrainee(
  ports: UploadPorts,
  caller: Caller,
  values: Readonly<Record<string, string>>,
): Promise<{ state: TraineeState & { exists: true } } | RowMessage[]> {
  const given = values.trainee_id;
  if (given === '') return [{ column: 'trainee_id', message: "trainee_id can't be blank" }];
  const stored = await ports.trainees.trainees.getTrainee(given);
  const state = stored ? await loadTraineeState(ports.trainees.eventStore, stored.trainee_id) : null;
  if (!state?.exists || state.trainee.ukprn !== caller.ukprn)
    return [{ column: 'trainee_id', message: 'trainee_id is not a trainee of this provider' }];
  const record: Record<string, string> = {
    provider_trainee_id: String(state.trainee.details.provider_trainee_id ?? ''),
    trn: state.trainee.trn ?? '',
    first_names: String(state.trainee.details.first_names ?? ''),
    last_name: String(state.trainee.details.last_name ?? ''),
  };
  const mismatched = IDENTITY_COLUMNS.filter((c) => values[c] !== '' && values[c] !== record[c]);
  if (mismatched.length > 0) return mismatched.map((c) => ({ column: c, message: `${c} must match the trainee record` }));
  return { state };
}

/** The recommendation of `state` on `date` decided with the version's rules (throws the decider's errors). */
function recommend(caller: Caller, version: ApiVersion, state: TraineeState, traineeId: string, date: string, now: string) {
  const contract = contractFor(version);
  const data = contract.requests.recommendation({ [RECOMMEND_DATE_COLUMN]: date });
  return decide({ type: 'RecommendForAward', trainee_id: traineeId, ukprn: caller.ukprn, rules: contract.rules, now, data }, state);
}

/** The messages of a row the recommendation refused; other errors are thrown on. */
function refusal(error: unknown): RowMessage[] {
  if (error instanceof ValidationFailed) {
    return error.messages.map((message) => ({ column: message.startsWith(RECOMMEND_DATE_COLUMN) ? RECOMMEND_DATE_COLUMN : null, message }));
  }
  if (error instanceof DomainError) return [{ column: null, message: error.message }];
  throw error;
}

/** Checks every dated row, appending nothing, calling `pace` between rows: the rows' numbers and every message about them, in row order. */
export async function checkRecommendRows(
  ports: UploadPorts,
  caller: Caller,
  version: ApiVersion,
  table: UploadTable,
  pace: WorkPace,
): Promise<{ rows: number[]; errors: RowError[] }> {
  const rows: number[] = [];
  const errors: RowError[] = [];
  const seen = new Set<string>();
  const now = ports.trainees.clock().toISOString();
  for (const record of datedRecords(table)) {
    rows.push(record.row);
    const found = await rowTrainee(ports, caller, record.values);
    let messages: RowMessage[] = [];
    if (Array.isArray(found)) messages = found;
    else if (seen.has(found.state.trainee.trainee_id))
      messages = [{ column: 'trainee_id', message: 'trainee_id is in the file more than once' }];
    else {
      seen.add(found.state.trainee.trainee_id);
      try {
        recommend(caller, version, found.state, found.state.trainee.trainee_id, record.values[RECOMMEND_DATE_COLUMN], now);
      } catch (error) {
        messages = refusal(error);
      }
    }
    for (const m of messages) errors.push({ row: record.row, ...m });
    await pace.next();
  }
  return { rows, errors };
}

/** Each checked row and the trainee it recommends (as stored: ids match case-insensitively). */
export async function recommendTargets(ports: UploadPorts, table: UploadTable, rows: readonly number[]): Promise<RowTarget[]> {
  const targets: RowTarget[] = [];
  for (const record of table.records.filter((r) => rows.includes(r.row))) {
    const stored = await ports.trainees.trainees.getTrainee(record.values.trainee_id);
    targets.push({ row: record.row, trainee_id: stored?.trainee_id ?? record.values.trainee_id });
  }
  return targets;
}

/**
 * Recommends one submitted row's trainee, unless it is already recommended (or awarded) on that
 * date: the row was written before a stop, its outcome not yet recorded. Returns the outcome.
 */
export async function writeRecommendRow(
  ports: UploadPorts,
  caller: Caller,
  version: ApiVersion,
  table: UploadTable,
  target: RowTarget,
): Promise<RowOutcomeInput> {
  const record = table.records.find((r) => r.row === target.row);
  if (!record) throw new Error(`row ${target.row} of a submitted upload is not in its file`);
  const date = record.values[RECOMMEND_DATE_COLUMN];
  // The log, not the read model: after a restart the projection may not have caught up yet.
  const now = await loadTraineeState(ports.trainees.eventStore, target.trainee_id);
  if (now.exists && !RECOMMENDABLE.has(now.trainee.state) && now.trainee.outcome_date === date) return target;
  try {
    await handleTraineeCommand(ports.trainees, caller, target.trainee_id, (state, { traineeId, now }) =>
      recommend(caller, version, state, traineeId, date, now),
    );
    return target;
  } catch (error) {
    return { row: target.row, errors: refusal(error) };
  }
}
