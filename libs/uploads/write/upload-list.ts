/**
 * A provider's uploads, newest first: each upload received is listed in the provider's own stream
 * `uploadlist-<ukprn>` (an `UploadListed` naming it with its kind, size and time, appended before
 * the upload's first event) and delisted there once purged (`UploadDelisted`), so the list and the
 * provider's quotas read that one small stream, never an upload's file. The process keeps each
 * provider's list as read ({@link UploadLists}) and reads only what was appended since. Entries of
 * an older log name the upload only: their kind is learnt from the upload's stream, once.
 *
 * The background's own list is the ledger, one stream `uploadledger` for the whole service: each
 * upload is listed there first (`UploadListed`) and marked `UploadSettled` once nothing is left to
 * do or keep for it (purged, its key destroyed, its parts deleted). A start and each purge run read
 * the ledger and the uploads still unsettled: their cost grows with the uploads, never with the log.
 */
import { newEventId, registerEventSchemas, toEventData, type WriteContext } from '@app/event-sourcing';
import type { UploadKind } from '@app/uploads/decider';
import type { TraineeWritePorts } from '@app/trainees/write';

/** Stream category of the providers' upload lists: `uploadlist-<ukprn>`. */
export const UPLOAD_LIST_STREAM_PREFIX = 'uploadlist-';

/** An upload listed for its provider (and in the ledger): `kind` and `byte_count` absent in entries of an older log. */
export interface UploadListed {
  type: 'UploadListed';
  data: { upload_id: string; at: string; kind?: UploadKind; byte_count?: number };
}
registerEventSchemas({ UploadListed: 2 });

/** An upload purged, no longer in its provider's list. */
export interface UploadDelisted {
  type: 'UploadDelisted';
  data: { upload_id: string; at: string };
}
registerEventSchemas({ UploadDelisted: 1 });

/** The stream listing every upload of every provider for the background's work (see the file's comment). */
export const UPLOAD_LEDGER_STREAM = 'uploadledger';

/** An upload with nothing left to do or keep: purged, its data key destroyed. */
export interface UploadSettled {
  type: 'UploadSettled';
  data: { upload_id: string; at: string };
}
registerEventSchemas({ UploadSettled: 1 });

/** An upload as its provider's list holds it. `kind` null: not yet known (an entry of an older log). */
export interface ListedUpload {
  upload_id: string;
  /** When it was listed, ISO 8601 UTC. */
  at: string;
  kind: UploadKind | null;
  /** The file's size in bytes; 0 when the entry does not say (an older log). */
  byte_count: number;
  /** Purged (or found purged): left out of the list. */
  delisted: boolean;
}

/** What the lists read and append through: the log, and the process's {@link UploadLists} when it keeps them. */
export interface UploadListPorts {
  trainees: Pick<TraineeWritePorts, 'eventStore'>;
  lists?: UploadLists;
}

/** How many providers' lists {@link UploadLists} keeps. */
const LISTS_KEPT = 1024;

/** One provider's list as read: its entries, oldest first, by id, and the revision to read from next. */
interface KeptList {
  entries: ListedUpload[];
  byId: Map<string, ListedUpload>;
  next: number;
}

/**
 * The providers' upload lists read lately in this process, each with the revision it was read to,
 * the least recently read dropped past {@link LISTS_KEPT}: a later read reads only the events
 * appended since. What is learnt of an older entry (its kind, that it was purged) is kept with it.
 */
export class UploadLists {
  private readonly kept = new Map<string, KeptList>();

  /** The list kept for `ukprn` (made the most recently read), or a new empty one. */
  take(ukprn: string): KeptList {
    const list = this.kept.get(ukprn) ?? { entries: [], byId: new Map(), next: 0 };
    this.kept.delete(ukprn);
    this.kept.set(ukprn, list);
    if (this.kept.size > LISTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    return list;
  }
}

/**
 * The provider's uploads, oldest first, delisted ones included (marked): its list stream read from
 * where `ports.lists` left it (from the start without one). The entries are the kept ones: callers
 * read them and mark only what they learn ({@link ListedUpload.kind}, {@link ListedUpload.delisted}).
 */
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

/**
 * Lists `uploadId` (of `kind`, `byteCount` bytes) in the ledger, then for its provider `ukprn`
 * (append-only; any revision): an upload a stop left unlisted for its provider is still found by
 * the background's next start.
 */
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

/** Takes `uploadId` out of its provider's list (purged). Safe to repeat. */
export async function delistUpload(ports: UploadListPorts, ukprn: string, uploadId: string, ctx: WriteContext): Promise<void> {
  const event: UploadDelisted = { type: 'UploadDelisted', data: { upload_id: uploadId, at: ctx.occurredAt } };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LIST_STREAM_PREFIX + ukprn, toEventData([event], ctx, newEventId), {
    expectedRevision: 'any',
  });
}

/** Marks `uploadId` settled in the ledger: later starts and purge runs no longer read it. */
export async function settleUpload(ports: UploadListPorts, uploadId: string, ctx: WriteContext): Promise<void> {
  const event: UploadSettled = { type: 'UploadSettled', data: { upload_id: uploadId, at: ctx.occurredAt } };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LEDGER_STREAM, toEventData([event], ctx, newEventId), { expectedRevision: 'any' });
}

/** The ids of the uploads listed in the ledger and not settled, oldest first (each once). */
export async function unsettledUploads(ports: UploadListPorts): Promise<string[]> {
  return (await unsettledEntries(ports)).map((e) => e.upload_id);
}

/** An upload of the ledger not settled: when it was listed (ISO 8601 UTC), and for which provider (null: not recorded). */
export interface UnsettledUpload {
  upload_id: string;
  at: string;
  ukprn: string | null;
}

/** {@link unsettledUploads} with when and for whom each was listed. */
export async function unsettledEntries(ports: UploadListPorts): Promise<UnsettledUpload[]> {
  const unsettled = new Map<string, UnsettledUpload>();
  for (const r of await ports.trainees.eventStore.readStream(UPLOAD_LEDGER_STREAM)) {
    const data = r.data as { upload_id?: unknown; at?: unknown } | null;
    if (typeof data?.upload_id !== 'string') continue;
    const ukprn = typeof r.metadata?.providerUkprn === 'string' ? r.metadata.providerUkprn : null;
    if (r.type === 'UploadListed') unsettled.set(data.upload_id, { upload_id: data.upload_id, at: String(data.at), ukprn });
    else if (r.type === 'UploadSettled') unsettled.delete(data.upload_id);
  }
  return [...unsettled.values()];
}
