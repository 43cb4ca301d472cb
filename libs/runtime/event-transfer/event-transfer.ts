import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ExportedChains } from '@app/audit';
import {
  IdempotencyConflictError,
  LOG_START,
  WrongExpectedVersionError,
  type EventData,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type StoredLog,
} from '@app/event-sourcing';

/**
 * Export and import of the whole event log as JSON lines (docs/operations.md "Export, import and
 * moving to EventStoreDB"): for auditors, and for moving a deployment between stores (the embedded
 * SQLite log into EventStoreDB, or back). Works on the event store port only, so any adapter can be
 * the source or the target. Events travel exactly as stored: same stream ids, revisions, event
 * ids, types, data and metadata (old schema versions are not upcast: stored events are never
 * rewritten).
 */

/** One line of an export: an event as stored, with its place in its stream and in the log. */
export interface ExportedEvent {
  /** Global position in the source log (informational: the target assigns its own positions, in the same order). */
  position: number;
  stream_id: string;
  revision: number;
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

/**
 * A line of an export that carries the data key of a stream of personal data (docs/DESIGN.md
 * "Personal data"), before the stream's first event: the key as the key store keeps it, wrapped
 * under the key-encryption key (base64), never in the clear; null once the trainee was erased.
 */
export interface ExportedDataKey {
  data_key: { stream_id: string; wrapped: string | null };
}

/** How an export carries the data keys of the streams it holds, and an import stores them (see `PersonalData.dataKeyTransfer`). */
export interface DataKeyTransfer {
  /** The key of `streamId` as it travels (`wrapped` null: erased); null for a stream without one. */
  exported(streamId: string): Promise<{ wrapped: string | null } | null>;
  /** Stores a key that travelled; returns why this store cannot take it (wrapped under another key), or null. */
  imported(streamId: string, wrapped: string | null): Promise<string | null>;
}

/**
 * A line of an export that carries a part a stream keeps outside the log (an upload's file or row
 * messages, docs/DESIGN.md "Uploads"), before the stream's first event: its name and its bytes as
 * stored (sealed with the stream's data key), base64.
 */
export interface ExportedAttachment {
  attachment: { stream_id: string; name: string; bytes: string };
}

/** How an export carries the parts streams keep outside the log, and an import stores them. */
export interface AttachmentTransfer {
  /** The parts `streamId` keeps outside the log, as stored ([] for a stream without any). */
  exported(streamId: string): Promise<{ name: string; bytes: Uint8Array }[]>;
  /** Stores a part that travelled; returns why this store cannot take it (a stream that keeps none), or null. */
  imported(streamId: string, name: string, bytes: Uint8Array): Promise<string | null>;
}

/** Events read from the store per batch, and the most an import appends in one call. */
export const EVENT_TRANSFER_BATCH_SIZE = 1000;

/** The import's target store already holds events. */
export class ImportTargetNotEmpty extends Error {
  constructor(readonly headPosition: number) {
    super(`The target event store is not empty (its log ends at position ${headPosition}); events are imported only into an empty store`);
    this.name = 'ImportTargetNotEmpty';
  }
}

/** A line of the import file is not an exported event, or does not fit the events before it. */
export class ImportFileInvalid extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'ImportFileInvalid';
  }
}

/**
 * Writes the log as stored (`storedLog`: personal values sealed) to `out` as JSON lines
 * ({@link ExportedEvent}, one per line) in position order, from position `since` (exclusive,
 * default 0) up to the head of the log when the export starts (events appended meanwhile are left
 * for a later `since`). Reads and writes one batch at a time and waits for each batch to be
 * written, so the log is never held in memory whatever its size. Does not end `out`. Returns the
 * number of events written. `exported(type, data)` gives each event's data as written (default: as
 * stored); the caller seals there what must never leave in plain text (webhook secrets stored
 * before they were sealed). With `dataKeys`, each stream of personal data whose first event the
 * export holds is preceded by its data key ({@link ExportedDataKey}), so the export's sealed values
 * open where it is imported with the same service key; with `attachments`, then by the parts the
 * stream keeps outside the log ({@link ExportedAttachment}), as they are when it is exported. Rejects with a RangeError for a negative or
 * fractional `since`, and with the stream's error when `out` fails.
 */
export async function exportEvents(
  storedLog: StoredLog,
  out: Writable,
  options: {
    since?: LogPosition;
    batchSize?: number;
    exported?: (type: string, data: unknown) => unknown;
    dataKeys?: DataKeyTransfer | null;
    attachments?: AttachmentTransfer | null;
  } = {},
): Promise<number> {
  const since = options.since ?? LOG_START;
  if (!Number.isSafeInteger(since) || since < 0) throw new RangeError(`since must be a position (an integer ≥ 0), got ${since}`);
  const batchSize = options.batchSize ?? EVENT_TRANSFER_BATCH_SIZE;
  const head = await storedLog.headPosition();
  let cursor = since;
  let count = 0;
  while (cursor < head) {
    const batch = await storedLog.readAll({ fromPosition: cursor, maxCount: batchSize });
    if (batch.length === 0) break;
    let chunk = '';
    for (const e of batch) {
      if (e.position > head) break;
      if (e.streamRevision === 0 && options.dataKeys) {
        const key = await options.dataKeys.exported(e.streamId);
        if (key) chunk += `${JSON.stringify({ data_key: { stream_id: e.streamId, wrapped: key.wrapped } } satisfies ExportedDataKey)}\n`;
      }
      if (e.streamRevision === 0 && options.attachments) {
        for (const { name, bytes } of await options.attachments.exported(e.streamId)) {
          const line: ExportedAttachment = { attachment: { stream_id: e.streamId, name, bytes: Buffer.from(bytes).toString('base64') } };
          chunk += `${JSON.stringify(line)}\n`;
        }
      }
      const line: ExportedEvent = {
        position: e.position,
        stream_id: e.streamId,
        revision: e.streamRevision,
        id: e.id,
        type: e.type,
        data: options.exported ? options.exported(e.type, e.data) : e.data,
        metadata: e.metadata,
      };
      chunk += `${JSON.stringify(line)}\n`;
      count++;
    }
    if (chunk !== '') await write(out, chunk);
    cursor = batch[batch.length - 1].position;
  }
  return count;
}

/**
 * Loads an export ({@link exportEvents}) into an empty event store, line by line: each event is
 * appended to its stream with its event id, type, data and metadata, and with the revision before
 * it as the expected revision (`no_stream` for revision 0), so the target's streams have the same
 * revisions and its log the same order. Consecutive events of one stream go in one append (up to
 * `batchSize`). Blank lines are skipped. Returns the number of events imported.
 *
 * Rejects with {@link ImportTargetNotEmpty} when the store holds events (nothing is written), and
 * with {@link ImportFileInvalid} (naming the line) for a line that is not an exported event, a
 * position not after the previous line's, or a revision that does not follow its stream's (as in
 * an export made with `since`, which holds only the tail of the log). The import is not one
 * transaction: after a failure the target holds the events before the failing line; start again
 * with an empty store. `refusal(type, data)` names why this store cannot take an event (a webhook
 * secret sealed with another service key), or returns null; a reason is an {@link ImportFileInvalid}
 * of its line. A data key line ({@link ExportedDataKey}) goes to `dataKeys`, which refuses a key
 * wrapped under another service key the same way, and an attachment line ({@link ExportedAttachment})
 * to `attachments`. Every event keeps its place, revision and position.
 */
export async function importEvents(
  eventStore: EventStore,
  input: Readable,
  options: {
    batchSize?: number;
    refusal?: (type: string, data: unknown) => string | null;
    dataKeys?: DataKeyTransfer | null;
    attachments?: AttachmentTransfer | null;
  } = {},
): Promise<number> {
  const head = await eventStore.headPosition();
  if (head > 0) throw new ImportTargetNotEmpty(head);
  const batchSize = options.batchSize ?? EVENT_TRANSFER_BATCH_SIZE;

  let pending: PendingAppend | null = null;
  /** Each stream's chain as the file holds it, under its exported id (see {@link checkChained}). */
  const chains = new ExportedChains();
  let lastPosition = 0;
  let lineNo = 0;
  let count = 0;
  /** Position of the target's last event: every append must move it (a repeated event would be a silent no-op). */
  let targetHead = 0;
  const append = async (batch: PendingAppend): Promise<void> => {
    const position = await appendPending(eventStore, batch);
    if (position <= targetHead) {
      throw new ImportFileInvalid(
        batch.firstLine,
        `event ${batch.events[0].id} of ${batch.streamId} was imported already (a repeated line)`,
      );
    }
    targetHead = position;
    count += batch.events.length;
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const raw of lines) {
    lineNo++;
    const text = raw.trim();
    if (text === '') continue;
    const key = dataKeyLine(text, lineNo);
    if (key !== null) {
      if (!options.dataKeys) throw new ImportFileInvalid(lineNo, 'a data key, but this store keeps no personal data keys');
      const refusedKey = await options.dataKeys.imported(key.stream_id, key.wrapped);
      if (refusedKey !== null) throw new ImportFileInvalid(lineNo, refusedKey);
      continue;
    }
    const attachment = attachmentLine(text, lineNo);
    if (attachment !== null) {
      if (!options.attachments) throw new ImportFileInvalid(lineNo, 'an attachment, but this store keeps none');
      const refused = await options.attachments.imported(attachment.stream_id, attachment.name, Buffer.from(attachment.bytes, 'base64'));
      if (refused !== null) throw new ImportFileInvalid(lineNo, refused);
      continue;
    }
    const e = parseLine(text, lineNo);
    checkChained(chains, e, lineNo);
    if (e.position !== undefined) {
      if (e.position <= lastPosition) {
        throw new ImportFileInvalid(lineNo, `position ${e.position} is not after the previous line's ${lastPosition}`);
      }
      lastPosition = e.position;
    }
    const refused = options.refusal?.(e.type, e.data) ?? null;
    if (refused !== null) throw new ImportFileInvalid(lineNo, refused);
    const event: EventData = { id: e.id, type: e.type, data: e.data, metadata: e.metadata };
    if (
      pending !== null &&
      pending.streamId === e.stream_id &&
      pending.firstRevision + pending.events.length === e.revision &&
      pending.events.length < batchSize
    ) {
      pending.events.push(event);
      continue;
    }
    if (pending !== null) await append(pending);
    pending = { streamId: e.stream_id, firstRevision: e.revision, firstLine: lineNo, events: [event] };
  }
  if (pending !== null) await append(pending);
  return count;
}

/**
 * Holds each event of the file to its stream's hash chain as exported (`ExportedChains`,
 * docs/DESIGN.md "Verifiable history"). Throws {@link ImportFileInvalid} for an event that does not
 * match its hash or is not chained to the one before it in the file.
 */
function checkChained(chains: ExportedChains, e: Omit<ExportedEvent, 'position'>, lineNo: number): void {
  if (chains.holds({ streamId: e.stream_id, revision: e.revision, id: e.id, type: e.type, data: e.data, metadata: e.metadata })) return;
  throw new ImportFileInvalid(
    lineNo,
    `event ${e.id} of ${e.stream_id} at revision ${e.revision} does not match the hash chain it was exported with: ` +
      'the file was changed after the export (audit verify on the exporting store says whether its log was)',
  );
}

/** Consecutive events of one stream from the import file, appended together. */
interface PendingAppend {
  streamId: string;
  firstRevision: number;
  /** Line of the first event, for error messages. */
  firstLine: number;
  events: EventData[];
}

/**
 * Appends a batch of the import with the revision before its first event as the expected revision;
 * returns the position of its last event.
 */
async function appendPending(eventStore: EventStore, batch: PendingAppend): Promise<number> {
  const { streamId, firstRevision, firstLine, events } = batch;
  const expectedRevision: ExpectedRevision = firstRevision === 0 ? 'no_stream' : firstRevision - 1;
  try {
    return (await eventStore.appendToStream(streamId, events, { expectedRevision })).position;
  } catch (err) {
    if (err instanceof WrongExpectedVersionError) {
      const actual = err.actual === 'no_stream' ? 'the stream does not exist yet' : `the stream's last revision is ${err.actual}`;
      throw new ImportFileInvalid(
        firstLine,
        `${streamId} revision ${firstRevision} does not follow the events before it (${actual}); ` +
          'an export made with --since holds only the tail of the log and cannot be imported on its own',
      );
    }
    if (err instanceof IdempotencyConflictError) {
      throw new ImportFileInvalid(firstLine, `event id ${err.eventId} appears more than once`);
    }
    // The adapters refuse an invalid event (an id that is not a UUID, say) with a TypeError or RangeError.
    if (err instanceof TypeError || err instanceof RangeError) throw new ImportFileInvalid(firstLine, err.message);
    throw err;
  }
}

/** The data key of a line that holds one ({@link ExportedDataKey}), checked; null for any other line. */
function dataKeyLine(text: string, line: number): ExportedDataKey['data_key'] | null {
  if (!text.startsWith('{"data_key"')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportFileInvalid(line, 'not JSON');
  }
  const k = (value as Partial<ExportedDataKey>).data_key as Record<string, unknown> | undefined;
  if (typeof k !== 'object' || k === null || typeof k.stream_id !== 'string' || k.stream_id === '')
    throw new ImportFileInvalid(line, 'data_key.stream_id must be a non-empty string');
  if (k.wrapped !== null && (typeof k.wrapped !== 'string' || !/^[A-Za-z0-9+/]{1,200}={0,2}$/.test(k.wrapped)))
    throw new ImportFileInvalid(line, 'data_key.wrapped must be a wrapped key in base64, or null');
  return { stream_id: k.stream_id, wrapped: k.wrapped as string | null };
}

/** The attachment of a line that holds one ({@link ExportedAttachment}), checked; null for any other line. */
function attachmentLine(text: string, line: number): ExportedAttachment['attachment'] | null {
  if (!text.startsWith('{"attachment"')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportFileInvalid(line, 'not JSON');
  }
  const a = (value as Partial<ExportedAttachment>).attachment as Record<string, unknown> | undefined;
  if (typeof a !== 'object' || a === null || typeof a.stream_id !== 'string' || a.stream_id === '')
    throw new ImportFileInvalid(line, 'attachment.stream_id must be a non-empty string');
  if (typeof a.name !== 'string' || !/^[\w.-]{1,100}$/.test(a.name))
    throw new ImportFileInvalid(line, 'attachment.name must be 1 to 100 letters, digits, dots, hyphens or underscores');
  if (typeof a.bytes !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(a.bytes))
    throw new ImportFileInvalid(line, 'attachment.bytes must be base64');
  return { stream_id: a.stream_id, name: a.name, bytes: a.bytes };
}

/** A line of an export, checked field by field. */
function parseLine(text: string, line: number): Omit<ExportedEvent, 'position'> & { position?: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportFileInvalid(line, 'not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ImportFileInvalid(line, 'not a JSON object');
  const o = value as Record<string, unknown>;
  const fail = (field: string, what: string): never => {
    throw new ImportFileInvalid(line, `${field} must be ${what}`);
  };
  if (typeof o.stream_id !== 'string' || o.stream_id === '') fail('stream_id', 'a non-empty string');
  if (!Number.isSafeInteger(o.revision) || (o.revision as number) < 0) fail('revision', 'an integer ≥ 0');
  if (typeof o.id !== 'string' || o.id === '') fail('id', 'an event id');
  if (typeof o.type !== 'string' || o.type === '') fail('type', 'a non-empty string');
  if (!('data' in o)) fail('data', 'present');
  if (o.metadata === null || typeof o.metadata !== 'object' || Array.isArray(o.metadata)) fail('metadata', 'an object');
  if (o.position !== undefined && (!Number.isSafeInteger(o.position) || (o.position as number) < 1)) fail('position', 'an integer ≥ 1');
  return {
    position: o.position as number | undefined,
    stream_id: o.stream_id as string,
    revision: o.revision as number,
    id: o.id as string,
    type: o.type as string,
    data: o.data,
    metadata: o.metadata as EventMetadata,
  };
}

/** Writes `chunk` and resolves once `out` has handed it on (backpressure: one batch in flight at a time). */
function write(out: Writable, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(chunk, (err) => (err ? reject(err) : resolve()));
  });
}
