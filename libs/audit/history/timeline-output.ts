import { once } from 'node:events';
import { timelineChunks, traineeStreamOf, type TimelineEntry, type TimelineSource } from '@app/trainees/read';
import { AuditRefused } from '../audit-log';

/** The API's largest page. */
export const HISTORY_CHUNK = 1000;

export type TimelineFormat = 'table' | 'json';

type Output = NodeJS.WritableStream;

/**
 * Streams `trainee history <trainee_id>` as a table or JSON lines (docs/operations.md "Trainee history"), in chunks of `chunkSize`,
 * memory bounded by two chunks; the output equals the whole timeline's at once. The number of entries written;
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
  // Each text is written once the next is read, so the last goes out with `writeLast`.
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

/** Waits for `out` to drain when its buffer is full: what bounds a streamed output's memory. */
export async function write(out: Output, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** Waits until everything written is handed on: the CLI exits at once, which would cut short what a pipe had not taken. */
export function writeLast(out: Output, text: string): Promise<void> {
  return new Promise((resolve, reject) => out.write(text, (err) => (err ? reject(err) : resolve())));
}

/**
 * Fixed widths (the title's or the longest usual value's), so rows written chunk by chunk line up; a longer cell pushes its row's later
 * cells right. The changed fields, which can be long, come last.
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

export function timelineHeader(): string {
  return line(COLUMNS.map(([title]) => title));
}

export function timelineRows(entries: readonly TimelineEntry[]): string {
  return entries.map((e) => line(COLUMNS.map(([, , cell]) => cell(e)))).join('');
}

/** The same text {@link writeTimeline} writes in chunks. */
export function timelineTable(entries: readonly TimelineEntry[]): string {
  return timelineHeader() + timelineRows(entries);
}
