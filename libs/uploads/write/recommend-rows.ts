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
import { decide, RECOMMENDATION_MESSAGES, StateTransitionError, ValidationFailed, type TraineeState } from '@app/trainees/decider';
import { catalogueEntry, type ApiVersion, type Trainee } from '@app/trainees/record';
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

/**
 * The caller's trainee a row names, and its state; messages when it names none or another provider's. Each message is kept with what
 * it is about (`blank`, `not_a_trainee`, `does_not_match`), which the uploads page words for a person.
 */
async function rowTrainee(
  ports: UploadPorts,
  caller: Caller,
  values: Readonly<Record<string, string>>,
): Promise<{ state: TraineeState & { exists: true } } | RowMessage[]> {
  const given = values.trainee_id;
  if (given === '') return [{ column: 'trainee_id', message: "trainee_id can't be blank", about: { kind: 'blank' } }];
  const stored = await ports.trainees.trainees.getTrainee(given);
  const state = stored ? await loadTraineeState(ports.trainees.eventStore, stored.trainee_id) : null;
  if (!state?.exists || state.trainee.ukprn !== caller.ukprn)
    return [
      { column: 'trainee_id', message: 'trainee_id is not a trainee of this provider', about: { kind: 'not_a_trainee', value: given } },
    ];
  const record: Record<string, string> = {
    provider_trainee_id: String(state.trainee.details.provider_trainee_id ?? ''),
    trn: state.trainee.trn ?? '',
    first_names: String(state.trainee.details.first_names ?? ''),
    last_name: String(state.trainee.details.last_name ?? ''),
  };
  const mismatched = IDENTITY_COLUMNS.filter((c) => values[c] !== '' && values[c] !== record[c]);
  if (mismatched.length > 0)
    return mismatched.map((c) => ({
      column: c,
      message: `${c} must match the trainee record`,
      about: { kind: 'does_not_match', value: values[c] },
    }));
  return { state };
}

/** The recommendation of `state` on `date` decided with the version's rules (throws the decider's errors). */
function recommend(caller: Caller, version: ApiVersion, state: TraineeState, traineeId: string, date: string, now: string) {
  const contract = contractFor(version);
  const data = contract.requests.recommendation({ [RECOMMEND_DATE_COLUMN]: date });
  return decide({ type: 'RecommendForAward', trainee_id: traineeId, ukprn: caller.ukprn, rules: contract.rules, now, data }, state);
}

/**
 * What a message of the recommendation's refusal of `trainee` on `date` is about: the date's wire check (`isIsoDate`, as the request's
 * problem says), a rule of the recommendation (`date_in_future`, `date_before_itt_start`, `degree_missing`, `too_few_placements`),
 * or undefined.
 */
function aboutRecommendation(message: string, version: ApiVersion, trainee: Trainee, date: string): RowMessage['about'] {
  const data = contractFor(version).requests.recommendation({ [RECOMMEND_DATE_COLUMN]: date });
  const wire = data.kind === 'data' ? data.problems.find((p) => p.message === message)?.detail : undefined;
  if (wire) return { ...wire };
  const route = catalogueEntry('training_route', trainee.details?.training_route);
  if (message === RECOMMENDATION_MESSAGES.dateInFuture) return { kind: 'date_in_future', value: date };
  if (message === RECOMMENDATION_MESSAGES.dateBeforeIttStart)
    return { kind: 'date_before_itt_start', value: date, params: { itt_start_date: String(trainee.details?.itt_start_date ?? '') } };
  if (message === RECOMMENDATION_MESSAGES.degreeMissing) return { kind: 'degree_missing' };
  if (route && message === RECOMMENDATION_MESSAGES.tooFewPlacements(route.minimum_placements_for_award, route.value))
    return {
      kind: 'too_few_placements',
      params: { minimum: String(route.minimum_placements_for_award), count: String(trainee.placements.length) },
    };
  return undefined;
}

/**
 * The messages of a row the recommendation refused; other errors are thrown on. With `about` (the check), each is kept with what it is
 * about: the trainee recommended on `date` in `version`, whose state refused it (`not_recommendable`) or whose rules did.
 */
function refusal(error: unknown, about?: { version: ApiVersion; trainee: Trainee; date: string }): RowMessage[] {
  if (error instanceof ValidationFailed) {
    return error.messages.map((message) => {
      const column = message.startsWith(RECOMMEND_DATE_COLUMN) ? RECOMMEND_DATE_COLUMN : null;
      const what = about && aboutRecommendation(message, about.version, about.trainee, about.date);
      return what ? { column, message, about: what } : { column, message };
    });
  }
  if (error instanceof StateTransitionError && about)
    return [{ column: null, message: error.message, about: { kind: 'not_recommendable', params: { state: about.trainee.state } } }];
  if (error instanceof DomainError) return [{ column: null, message: error.message }];
  throw error;
}

/**
 * Checks every dated row, appending nothing, calling `pace` between rows: the rows' numbers and every message about them, in row order,
 * each kept with what it is about where known.
 */
export async function checkRecommendRows(
  ports: UploadPorts,
  caller: Caller,
  version: ApiVersion,
  table: UploadTable,
  pace: WorkPace,
): Promise<{ rows: number[]; errors: RowError[] }> {
  const rows: number[] = [];
  const errors: RowError[] = [];
  /** Each trainee's first row. */
  const seen = new Map<string, number>();
  const now = ports.trainees.clock().toISOString();
  for (const record of datedRecords(table)) {
    rows.push(record.row);
    const found = await rowTrainee(ports, caller, record.values);
    let messages: RowMessage[] = [];
    if (Array.isArray(found)) messages = found;
    else if (seen.has(found.state.trainee.trainee_id)) {
      const about = { kind: 'duplicate_row', params: { row: String(seen.get(found.state.trainee.trainee_id)) } };
      messages = [{ column: 'trainee_id', message: 'trainee_id is in the file more than once', about }];
    } else {
      const { trainee } = found.state;
      seen.set(trainee.trainee_id, record.row);
      const date = record.values[RECOMMEND_DATE_COLUMN];
      try {
        recommend(caller, version, found.state, trainee.trainee_id, date, now);
      } catch (error) {
        messages = refusal(error, { version, trainee, date });
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
