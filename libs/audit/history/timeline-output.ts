import { once } from 'node:events';
import { timelineChunks, traineeStreamOf, type TimelineEntry, type TimelineSource } from '@app/trainees/read';
import { AuditRefused } from '../audit-log';

/**
 * A trainee's timeline as the auditor's CLI prints it (`trainee history <trainee_id>`,
 * docs/operations.md "Trainee history"): an aligned table or JSON lines, written a chunk at a time.
 */

/** Events read and written at a time by `trainee history` (the API's largest page). */
export const HISTORY_CHUNK = 1000;

/** What the timeline is printed as: an aligned table, or JSON lines. */
export type TimelineFormat = 'table' | 'json';

/** Where the timeline is written: process.stdout, or any writable stream. */
type Output = NodeJS.WritableStream;

/**
 * Writes the whole timeline of `traineeId` (resolved to its stored id by `resolveId` when it
 * names no stream as given) to `out` as it reads it (docs/operations.md "Trainee history"): the
 * stream is read in chunks of `chunkSize` events (default {@link HISTORY_CHUNK}), and each
 * chunk's rows (the table) or JSON lines (`json`) are written before the chunk after the next is
 * read, waiting for `out` to drain when it asks to, and the last until everything is handed on
 * (`writeLast`: a pipe's reader gets the whole timeline before the CLI exits); memory is bounded by
 * two chunks whatever the stream's length. The output is exactly that of the whole timeline at once (the table has fixed
 * column widths, {@link timelineTable}). Returns the number of entries written; throws
 * {@link AuditRefused} for an unknown trainee, before writing anything.
 */
export async function writeTimeline(
  source: TimelineSource,
  traineeId: string,
  format: TimelineFormat,
  out: Output,
  options: { resolveId?: (traineeId: string) => Promise<string | null>; chunkSize?: number } = {},
): Promise<number> {
  const storedId = await traineeStreamOf(source.storedLog, traineeId, options.resolveId);
  if (storedId === null) throw new AuditRefused(`No trainee with id ${traineeId}`);
  // Each text is written once the next is read, so that the last goes out with `writeLast`.
  let pending: string | null = format === 'table' ? timelineHeader() : null;
  let written = 0;
  for await (const chunk of timelineChunks(source, storedId, options.chunkSize ?? HISTORY_CHUNK)) {
    if (pending !== null) await write(out, pending);
    pending = format === 'json' ? chunk.map((e) => `${JSON.stringify(e)}\n`).join('') : timelineRows(chunk);
    written += chunk.length;
  }
  if (pending !== null) await writeLast(out, pending);
  return written;
}

/** Writes `text` to `out`, and waits for `out` to drain when its buffer is full (what keeps a streamed output's memory bounded). */
export async function write(out: Output, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * Writes `text` as the last of an output, and waits until everything written to `out` has been
 * handed on (to the OS, for stdout): the CLI exits at once after a command, which would cut short
 * what a pipe had not taken yet.
 */
export function writeLast(out: Output, text: string): Promise<void> {
  return new Promise((resolve, reject) => out.write(text, (err) => (err ? reject(err) : resolve())));
}

/**
 * The table's columns, each with a fixed width (its title's or its longest usual value's: a
 * position of up to 12 digits, an ISO instant, the longest event type, a UKPRN, a token id as a
 * UUID, an API version), so that rows written chunk by chunk line up without seeing the others; a
 * longer cell pushes its row's later cells right. The changed fields come last, as they can be
 * long (a registration sets dozens).
 */
const COLUMNS: [string, number, (e: TimelineEntry) => string][] = [
  ['POSITION', 12, (e) => String(e.position)],
  ['TIME', 24, (e) => e.occurred_at],
  ['EVENT', 26, (e) => e.event_type],
  ['PROVIDER', 8, (e) => e.provider_ukprn ?? '-'],
  ['TOKEN_ID', 36, (e) => e.token_id ?? '-'],
  ['API_VERSION', 11, (e) => e.api_version ?? '-'],
  ['CHANGED_FIELDS', 0, (e) => e.changed_fields.join(',') || '-'],
];

function line(cells: string[]): string {
  return cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(COLUMNS[i][1]))).join('  ') + '\n';
}

/** The table's title line. */
export function timelineHeader(): string {
  return line(COLUMNS.map(([title]) => title));
}

/** The table's rows of `entries`, one line each. */
export function timelineRows(entries: readonly TimelineEntry[]): string {
  return entries.map((e) => line(COLUMNS.map(([, , cell]) => cell(e)))).join('');
}

/** The timeline as a whole table: the title line, then one row per event (the same text {@link writeTimeline} writes in chunks). */
export function timelineTable(entries: readonly TimelineEntry[]): string {
  return timelineHeader() + timelineRows(entries);
}
