/**
 * A provider's uploads, listed in `uploadlist-<ukprn>` so the list and the quotas read one small stream, never a file; the background's
 * own list is the ledger, `uploadledger`, so its work grows with the uploads, never the log (docs/DESIGN.md "Uploads"). Entries of an
 * older log name the upload only: its kind is learnt from its stream, once.
 */
import { newEventId, registerEventSchemas, toEventData, type WriteContext } from '@app/event-sourcing';
import type { UploadKind } from '@app/uploads/decider';
import type { TraineeWritePorts } from '@app/trainees/write';

export const UPLOAD_LIST_STREAM_PREFIX = 'uploadlist-';

/** `kind` and `byte_count` absent in entries of an older log. */
export interface UploadListed {
  type: 'UploadListed';
  data: { upload_id: string; at: string; kind?: UploadKind; byte_count?: number };
}
registerEventSchemas({ UploadListed: 2 });

export interface UploadDelisted {
  type: 'UploadDelisted';
  data: { upload_id: string; at: string };
}
registerEventSchemas({ UploadDelisted: 1 });

/** Every upload of every provider, for the background's work. */
export const UPLOAD_LEDGER_STREAM = 'uploadledger';

/** Where the ledger is marked: below each mark's revision no upload is unsettled, so a start reads the ledger from the latest. */
export const UPLOAD_LEDGER_MARK_STREAM = 'uploadledger-mark';

/** Revisions the lowest unsettled listing must have moved on past the latest mark before another is recorded. */
export const UPLOAD_LEDGER_MARK_EVERY = 1000;

/** Every event of the ledger below `from_revision` is settled, or settles an upload. */
export interface UploadLedgerMarked {
  type: 'UploadLedgerMarked';
  data: { from_revision: number; at: string };
}
registerEventSchemas({ UploadLedgerMarked: 1 });

/** Purged, its data key destroyed. */
export interface UploadSettled {
  type: 'UploadSettled';
  data: { upload_id: string; at: string };
}
registerEventSchemas({ UploadSettled: 1 });

/** `kind` null: not yet known (an older log's entry). */
export interface ListedUpload {
  upload_id: string;
  /** ISO 8601 UTC. */
  at: string;
  kind: UploadKind | null;
  /** 0 when the entry does not say (an older log). */
  byte_count: number;
  /** Purged, or found purged: left out of the list. */
  delisted: boolean;
}

/** The log, and the process's {@link UploadLists} and {@link UploadLedger} when it keeps them. */
export interface UploadListPorts {
  trainees: Pick<TraineeWritePorts, 'eventStore'>;
  lists?: UploadLists;
  ledger?: UploadLedger;
}

/**
 * The ledger as this process last read it: its unsettled uploads with their listings' revisions, the revision to read from next, and
 * the latest mark known. Read on from where it stopped, so a purge run reads what the ledger gained since the last; a start reads it
 * from the latest mark ({@link UPLOAD_LEDGER_MARK_STREAM}), so neither grows with the uploads settled long ago.
 */
export class UploadLedger {
  readonly unsettled = new Map<string, UnsettledUpload & { revision: number }>();
  /** Null until the marks are read. */
  next: number | null = null;
  marked = 0;
}

const LISTS_KEPT = 1024;

/** Entries oldest first, by id, and the revision to read from next. */
interface KeptList {
  entries: ListedUpload[];
  byId: Map<string, ListedUpload>;
  next: number;
}

/** The lists read lately, each read on from its revision; least recently read dropped first. What is learnt of an older entry is kept. */
export class UploadLists {
  private readonly kept = new Map<string, KeptList>();

  /** Makes it the most recently read; a new empty list when none. */
  take(ukprn: string): KeptList {
    const list = this.kept.get(ukprn) ?? { entries: [], byId: new Map(), next: 0 };
    this.kept.delete(ukprn);
    this.kept.set(ukprn, list);
    if (this.kept.size > LISTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    return list;
  }
}

/** Oldest first, delisted ones included (marked). Callers may mark only what they learn ({@link ListedUpload.kind}, `delisted`). */
export async function providerUploads(ports: UploadListPorts, ukprn: string): Promise<ListedUpload[]> {
  const list: KeptList = ports.lists?.take(ukprn) ?? { entries: [], byId: new Map(), next: 0 };
  const recorded = await ports.trainees.eventStore.readStream(UPLOAD_LIST_STREAM_PREFIX + ukprn, { fromRevision: list.next });
  for (const r of recorded) {
    const data = r.data as Partial<UploadListed['data']> | null;
    if (typeof data?.upload_id !== 'string') continue;
    if (r.type === 'UploadListed' && !list.byId.has(data.upload_id)) {
      const entry: ListedUpload = {
        upload_id: data.upload_id,
        at: String(data.at),
        kind: data.kind ?? null,
        byte_count: typeof data.byte_count === 'number' ? data.byte_count : 0,
        delisted: false,
      };
      list.entries.push(entry);
      list.byId.set(entry.upload_id, entry);
    } else if (r.type === 'UploadDelisted') {
      const entry = list.byId.get(data.upload_id);
      if (entry) entry.delisted = true;
    }
  }
  if (recorded.length > 0) list.next = recorded[recorded.length - 1].streamRevision + 1;
  return list.entries;
}

/** In the ledger first, then for its provider, so an upload a stop left unlisted for its provider is still found by the next start. */
export async function listUpload(
  ports: UploadListPorts,
  ukprn: string,
  uploadId: string,
  listed: { kind: UploadKind; byteCount: number },
  ctx: WriteContext,
): Promise<void> {
  const event: UploadListed = {
    type: 'UploadListed',
    data: { upload_id: uploadId, at: ctx.occurredAt, kind: listed.kind, byte_count: listed.byteCount },
  };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LEDGER_STREAM, toEventData([event], ctx, newEventId), { expectedRevision: 'any' });
  await ports.trainees.eventStore.appendToStream(UPLOAD_LIST_STREAM_PREFIX + ukprn, toEventData([event], ctx, newEventId), {
    expectedRevision: 'any',
  });
}

/** Safe to repeat. */
export async function delistUpload(ports: UploadListPorts, ukprn: string, uploadId: string, ctx: WriteContext): Promise<void> {
  const event: UploadDelisted = { type: 'UploadDelisted', data: { upload_id: uploadId, at: ctx.occurredAt } };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LIST_STREAM_PREFIX + ukprn, toEventData([event], ctx, newEventId), {
    expectedRevision: 'any',
  });
}

/** Later starts and purge runs no longer read it. */
export async function settleUpload(ports: UploadListPorts, uploadId: string, ctx: WriteContext): Promise<void> {
  const event: UploadSettled = { type: 'UploadSettled', data: { upload_id: uploadId, at: ctx.occurredAt } };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LEDGER_STREAM, toEventData([event], ctx, newEventId), { expectedRevision: 'any' });
}

/** Oldest first, each once. */
export async function unsettledUploads(ports: UploadListPorts): Promise<string[]> {
  return (await unsettledEntries(ports)).map((e) => e.upload_id);
}

/** `ukprn` null: not recorded. */
export interface UnsettledUpload {
  upload_id: string;
  at: string;
  ukprn: string | null;
}

/** Oldest first; the ledger read on from where `ports.ledger` stopped (a fresh one: from the latest mark). */
export async function unsettledEntries(ports: UploadListPorts): Promise<UnsettledUpload[]> {
  const ledger = ports.ledger ?? new UploadLedger();
  const log = ports.trainees.eventStore;
  if (ledger.next === null) {
    for (const r of await log.readStream(UPLOAD_LEDGER_MARK_STREAM)) {
      const from = (r.data as Partial<UploadLedgerMarked['data']> | null)?.from_revision;
      if (r.type === 'UploadLedgerMarked' && Number.isSafeInteger(from) && from! > ledger.marked) ledger.marked = from!;
    }
    ledger.next = ledger.marked;
  }
  const read = await log.readStream(UPLOAD_LEDGER_STREAM, { fromRevision: ledger.next });
  for (const r of read) {
    const data = r.data as { upload_id?: unknown; at?: unknown } | null;
    if (typeof data?.upload_id !== 'string') continue;
    const ukprn = typeof r.metadata?.providerUkprn === 'string' ? r.metadata.providerUkprn : null;
    if (r.type === 'UploadListed' && !ledger.unsettled.has(data.upload_id)) {
      ledger.unsettled.set(data.upload_id, { upload_id: data.upload_id, at: String(data.at), ukprn, revision: r.streamRevision });
    } else if (r.type === 'UploadSettled') ledger.unsettled.delete(data.upload_id);
  }
  if (read.length > 0) ledger.next = read[read.length - 1].streamRevision + 1;
  return [...ledger.unsettled.values()].map(({ revision: _, ...entry }) => entry);
}

/**
 * Records a mark at the lowest revision of an unsettled listing (or where the ledger ends) once it is {@link UPLOAD_LEDGER_MARK_EVERY}
 * past the latest, as `ports.ledger` read it last ({@link unsettledEntries} first). Whether it recorded one.
 */
export async function markLedger(ports: UploadListPorts, ctx: WriteContext): Promise<boolean> {
  const ledger = ports.ledger;
  if (!ledger || ledger.next === null) return false;
  let lowest = ledger.next;
  for (const entry of ledger.unsettled.values()) lowest = Math.min(lowest, entry.revision);
  if (lowest - ledger.marked < UPLOAD_LEDGER_MARK_EVERY) return false;
  const event: UploadLedgerMarked = { type: 'UploadLedgerMarked', data: { from_revision: lowest, at: ctx.occurredAt } };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LEDGER_MARK_STREAM, toEventData([event], ctx, newEventId), {
    expectedRevision: 'any',
  });
  ledger.marked = lowest;
  return true;
}
