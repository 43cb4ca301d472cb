/**
 * An add-trainees file's rows checked and written through the trainee create path itself: each
 * row becomes the version's create body (trainee-columns.ts), goes through the version's wire
 * checks (`contract.requests.traineeCreate`) and the decider's record and duplicate rules
 * (`checkRegistration` to check, `registerTrainee` to write; libs/trainees/write), so a row is
 * refused as the same body sent to `POST /trainees` would be, with the same messages, each kept with
 * what it is about. One rule more: a code a spreadsheet shortened (`1` for grade `01`), which the
 * create path would read silently, is refused (spreadsheet-values.ts).
 */
import { DomainError } from '@app/event-sourcing';
import { contractFor } from '@app/trainees/contract';
import { DuplicateTrainee, MissingData, ValidationFailed, traineeStreamId } from '@app/trainees/decider';
import { implementedVersion, type ApiVersion, type Trainee } from '@app/trainees/record';
import { checkRegistration, registerTrainee, type Caller } from '@app/trainees/write';
import { parseUploadCsv, type UploadTable } from '@app/uploads/csv';
import type { UploadKind } from '@app/uploads/decider';
import type { WorkPace } from './background-pace';
import { readRecommendFile } from './recommend-rows';
import {
  UPLOAD_BYTES_MAX,
  UPLOAD_RECORDS_MAX,
  UPLOAD_ROWS_MAX,
  type RowError,
  type RowMessage,
  type RowOutcomeInput,
  type RowTarget,
} from '@app/uploads/decider';
import { codesWithoutZeros } from './spreadsheet-values';
import { addTraineeColumns, columnOfMessage, createBodyOf } from './trainee-columns';
import type { UploadPorts } from './upload.ports';

/** The API version an upload was made in (one the service implements). */
export function uploadVersion(name: string | null): ApiVersion {
  const version = name === null ? null : implementedVersion(name);
  if (version === null) throw new Error(`an upload of API version ${String(name)}, which this service does not implement`);
  return version;
}

/** An add-trainees file read as the template of `version` has it (refused as a whole: `UploadFileRefused`). */
export function readAddTraineesFile(body: Uint8Array, version: ApiVersion): Promise<UploadTable> {
  return parseUploadCsv(body, {
    columns: addTraineeColumns(version),
    maxBytes: UPLOAD_BYTES_MAX,
    maxRows: UPLOAD_ROWS_MAX,
    maxRecords: UPLOAD_RECORDS_MAX,
  });
}

/** A file of `kind` read as the template of `version` has it (refused as a whole: `UploadFileRefused`). */
export function readUploadTable(kind: UploadKind, body: Uint8Array, version: ApiVersion): Promise<UploadTable> {
  return kind === 'add_trainees' ? readAddTraineesFile(body, version) : readRecommendFile(body);
}

/** The messages of a row refused by the create path, each with its column and what it is about; other errors are thrown on. */
function rowMessages(error: unknown, columns: readonly string[], values: Readonly<Record<string, string>>): RowMessage[] {
  if (error instanceof ValidationFailed)
    return error.problems.map(({ message, detail }) => ({
      column: columnOfMessage(message, columns, values),
      message,
      ...(detail ? { about: { ...detail } } : {}),
    }));
  if (error instanceof DuplicateTrainee || error instanceof MissingData) return [{ column: null, message: error.message }];
  if (error instanceof DomainError) return [{ column: null, message: error.message }];
  throw error;
}

/** A row's messages with those of its mangled codes first, in their place: the create path's messages about those columns follow
 * from the code it could not read ("grade must be entered"), so they are left out. */
function withMangled(mangled: readonly RowMessage[], messages: readonly RowMessage[]): RowMessage[] {
  const columns = new Set(mangled.map((m) => m.column));
  return [...mangled, ...messages.filter((m) => !columns.has(m.column))];
}

/** What a duplicate row is about: a trainee already registered, or (`duplicate_row`) a row above it in the file. */
export const ALREADY_REGISTERED = 'already_registered';
export const DUPLICATE_ROW = 'duplicate_row';

/**
 * Whether a row's message says its trainee is already registered. A message kept before duplicates said what they are about is read
 * as one too: its words are the same.
 */
export function isAlreadyRegistered(error: RowMessage): boolean {
  if (error.about) return error.about.kind === ALREADY_REGISTERED;
  return error.column === null && error.message === new DuplicateTrainee([]).message;
}

/**
 * The duplicate's message, as the API words it, with what it is about: `duplicate_row` (`params.row`, the row above it) when every
 * trainee it duplicates is a row above it in the file (`rowOf`), else `already_registered`.
 */
function duplicateMessage(error: DuplicateTrainee, rowOf: ReadonlyMap<unknown, number>): RowMessage {
  const rows = error.existing.flatMap((t) => (rowOf.has(t) ? [rowOf.get(t)!] : []));
  const about =
    rows.length === error.existing.length && rows.length > 0
      ? { kind: DUPLICATE_ROW, params: { row: String(rows[0]) } }
      : { kind: ALREADY_REGISTERED };
  return { column: null, message: error.message, about };
}

/**
 * Checks every trainee row of `table` as a create of `caller`'s provider, appending nothing, calling
 * `pace` between rows: returns the trainee rows' numbers and every message about them, in row order.
 * A row that would duplicate an existing trainee, or a row above it in the file, reads "This
 * trainee is already in Register", about `already_registered` or `duplicate_row` (with that row).
 */
export async function checkTraineeRows(
  ports: UploadPorts,
  caller: Caller,
  table: UploadTable,
  pace: WorkPace,
): Promise<{ rows: number[]; errors: RowError[] }> {
  const contract = contractFor(uploadVersion(caller.apiVersion));
  const earlier = new Map<string, Trainee[]>();
  const rowOf = new Map<Trainee, number>();
  const rows: number[] = [];
  const errors: RowError[] = [];
  for (const record of table.records) {
    if (record.blank) continue;
    rows.push(record.row);
    const data = contract.requests.traineeCreate(createBodyOf(record.values));
    const mangled = codesWithoutZeros(record.values, contract.version);
    let messages: RowMessage[] = [];
    try {
      const { trainee, guardKey } = await checkRegistration(ports.trainees, caller, contract.rules, data, (key) => earlier.get(key) ?? []);
      if (mangled.length === 0) {
        earlier.set(guardKey, [...(earlier.get(guardKey) ?? []), trainee]);
        rowOf.set(trainee, record.row);
      }
    } catch (error) {
      messages = error instanceof DuplicateTrainee ? [duplicateMessage(error, rowOf)] : rowMessages(error, table.columns, record.values);
    }
    for (const m of withMangled(mangled, messages)) errors.push({ row: record.row, ...m });
    await pace.next();
  }
  return { rows, errors };
}

/**
 * Writes one submitted row to its trainee: registers it with the id the submit fixed, unless that
 * trainee's stream exists already (the row was written before a stop, its outcome not yet
 * recorded), so each row becomes a trainee once. A row refused now (a duplicate since the check)
 * gets its messages. Returns the row's outcome.
 */
export async function writeTraineeRow(ports: UploadPorts, caller: Caller, table: UploadTable, target: RowTarget): Promise<RowOutcomeInput> {
  const existing = await ports.trainees.eventStore.readStream(traineeStreamId(target.trainee_id), { maxCount: 1 });
  if (existing.length > 0) return target;
  const record = table.records.find((r) => r.row === target.row);
  if (!record) throw new Error(`row ${target.row} of a submitted upload is not in its file`);
  const contract = contractFor(uploadVersion(caller.apiVersion));
  const data = contract.requests.traineeCreate(createBodyOf(record.values));
  // As checked: a row the check refused is never submitted, so only a file checked before this rule meets it here.
  const mangled = codesWithoutZeros(record.values, contract.version);
  // The event keeps each message and its column, as the API answers them.
  const inEvent = (messages: RowMessage[]): RowMessage[] => messages.map(({ column, message }) => ({ column, message }));
  if (mangled.length > 0) return { row: target.row, errors: inEvent(mangled) };
  try {
    await registerTrainee(ports.trainees, caller, contract.rules, data, { traineeId: target.trainee_id, recordSource: 'csv' });
    return target;
  } catch (error) {
    return { row: target.row, errors: inEvent(rowMessages(error, table.columns, record.values)) };
  }
}
