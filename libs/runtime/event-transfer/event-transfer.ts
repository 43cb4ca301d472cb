import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ExportedChains } from '@app/audit';
import {
  AppendTooLargeError,
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
 * Export and import of the whole log as JSON lines (docs/operations.md "Export, import and moving to EventStoreDB"), over the port, so
 * any adapter is source or target. Events travel exactly as stored: never upcast.
 */

export interface ExportedEvent {
  /** In the source log; the target assigns its own, in the same order. */
  position: number;
  stream_id: string;
  revision: number;
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

/** Before the stream's first event: its data key wrapped as the key store keeps it (base64); null once erased. */
export interface ExportedDataKey {
  data_key: { stream_id: string; wrapped: string | null };
}

/** `PersonalData.dataKeyTransfer`. */
export interface DataKeyTransfer {
  /** `wrapped` null: erased; null for a stream without one. */
  exported(streamId: string): Promise<{ wrapped: string | null } | null>;
  /** Why this store cannot take it (wrapped under another key), or null. */
  imported(streamId: string, wrapped: string | null): Promise<string | null>;
}

/** Before the stream's first event: a part kept outside the log (an upload's), as stored (sealed), base64. */
export interface ExportedAttachment {
  attachment: { stream_id: string; name: string; bytes: string };
}

export interface AttachmentTransfer {
  /** As stored; [] for none. */
  exported(streamId: string): Promise<{ name: string; bytes: Uint8Array }[]>;
  /** Why this store cannot take it (a stream that keeps none), or null. */
  imported(streamId: string, name: string, bytes: Uint8Array): Promise<string | null>;
}

/** Per read, and the most an import appends in one call. */
export const EVENT_TRANSFER_BATCH_SIZE = 1000;

export class ImportTargetNotEmpty extends Error {
  constructor(readonly headPosition: LogPosition) {
    super(`The target event store is not empty (its log ends at position ${headPosition}); events are imported only into an empty store`);
    this.name = 'ImportTargetNotEmpty';
  }
}

/** Not an exported event, or not fitting the events before it. */
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
 * Writes the log as stored, one {@link ExportedEvent} a line, after `since` up to the head when it starts, a batch at a time with
 * backpressure; does not end `out`; returns the events written. `exported` seals what must never leave in plain text; `dataKeys` and
 * `attachments` precede each stream's first event with its key and parts. RangeError for a negative or fractional `since`.
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
 * Loads an export into an empty store, each event appended with its id and the revision before it expected, so streams, revisions and
 * order are kept; consecutive events of a stream in one append. Returns the events imported. {@link ImportTargetNotEmpty} (nothing
 * written); {@link ImportFileInvalid} naming the line for a bad line, a position or revision out of order, a broken chain, or what
 * `refusal`, `dataKeys` or `attachments` refuse. Not one transaction: after a failure start again with an empty store.
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
  /** Under the exported ids ({@link checkChained}). */
  const chains = new ExportedChains();
  let lastPosition = 0;
  let lineNo = 0;
  let count = 0;
  /** Every append must move it: a repeated event would be a silent no-op. */
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

/** {@link ImportFileInvalid} for an event not matching its hash or not chained to the one before it in the file. */
function checkChained(chains: ExportedChains, e: Omit<ExportedEvent, 'position'>, lineNo: number): void {
  if (chains.holds({ streamId: e.stream_id, revision: e.revision, id: e.id, type: e.type, data: e.data, metadata: e.metadata })) return;
  throw new ImportFileInvalid(
    lineNo,
    `event ${e.id} of ${e.stream_id} at revision ${e.revision} does not match the hash chain it was exported with: ` +
      'the file was changed after the export (audit verify on the exporting store says whether its log was)',
  );
}

interface PendingAppend {
  streamId: string;
  firstRevision: number;
  /** For error messages. */
  firstLine: number;
  events: EventData[];
}

/**
 * The revision before its first event expected; the position of its last. A batch over the store's append limit goes again one
 * event at a time; an event over it alone is {@link ImportFileInvalid}.
 */
async function appendPending(eventStore: EventStore, batch: PendingAppend): Promise<number> {
  const { streamId, firstRevision, firstLine, events } = batch;
  const expectedRevision: ExpectedRevision = firstRevision === 0 ? 'no_stream' : firstRevision - 1;
  try {
    return (await eventStore.appendToStream(streamId, events, { expectedRevision })).position;
  } catch (err) {
    if (err instanceof AppendTooLargeError && events.length > 1) {
      let position = 0;
      for (const [i, event] of events.entries()) {
        position = await appendPending(eventStore, {
          streamId,
          firstRevision: firstRevision + i,
          firstLine: firstLine + i,
          events: [event],
        });
      }
      return position;
    }
    if (err instanceof AppendTooLargeError) {
      throw new ImportFileInvalid(
        firstLine,
        `event ${events[0].id} of ${streamId} is larger than the event store takes in one append (${err.limitBytes} bytes): ` +
          "raise the server's limit (EventStoreDB: MaxAppendSize) to import it",
      );
    }
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

/** Checked; null for any other line. */
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

/** Checked; null for any other line. */
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

/** Resolves once `out` has handed it on: one batch in flight at a time. */
function write(out: Writable, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(chunk, (err) => (err ? reject(err) : resolve()));
  });
}
