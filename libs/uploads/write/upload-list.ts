/**
 * A provider's uploads, newest first: each upload received is listed in the provider's own stream
 * `uploadlist-<ukprn>` (an `UploadListed` naming it, appended before the upload's first event), so
 * the list reads one stream and the uploads of its page, never the whole log. An entry whose upload
 * has no stream (a stop between the appends) is left out.
 *
 * The background's own list is the ledger, one stream `uploadledger` for the whole service: each
 * upload is listed there first (`UploadListed`) and marked `UploadSettled` once nothing is left to
 * do or keep for it (purged, its key destroyed). A start and each purge run read the ledger and
 * the uploads still unsettled: their cost grows with the uploads, never with the log.
 */
import { newEventId, registerEventSchemas, toEventData, type WriteContext } from '@app/event-sourcing';
import type { UploadStreamPorts } from './upload.ports';

/** Stream category of the providers' upload lists: `uploadlist-<ukprn>`. */
export const UPLOAD_LIST_STREAM_PREFIX = 'uploadlist-';

/** An upload listed for its provider. */
export interface UploadListed {
  type: 'UploadListed';
  data: { upload_id: string; at: string };
}
registerEventSchemas({ UploadListed: 1 });

/** The stream listing every upload of every provider for the background's work (see the file's comment). */
export const UPLOAD_LEDGER_STREAM = 'uploadledger';

/** An upload with nothing left to do or keep: purged, its data key destroyed. */
export interface UploadSettled {
  type: 'UploadSettled';
  data: { upload_id: string; at: string };
}
registerEventSchemas({ UploadSettled: 1 });

/**
 * Lists `uploadId` in the ledger, then for the provider of `ctx` (append-only; any revision): an
 * upload a stop left unlisted for its provider is still found by the background's next start.
 */
export async function listUpload(ports: UploadStreamPorts, ukprn: string, uploadId: string, ctx: WriteContext): Promise<void> {
  const event: UploadListed = { type: 'UploadListed', data: { upload_id: uploadId, at: ctx.occurredAt } };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LEDGER_STREAM, toEventData([event], ctx, newEventId), { expectedRevision: 'any' });
  await ports.trainees.eventStore.appendToStream(UPLOAD_LIST_STREAM_PREFIX + ukprn, toEventData([event], ctx, newEventId), {
    expectedRevision: 'any',
  });
}

/** Marks `uploadId` settled in the ledger: later starts and purge runs no longer read it. */
export async function settleUpload(ports: UploadStreamPorts, uploadId: string, ctx: WriteContext): Promise<void> {
  const event: UploadSettled = { type: 'UploadSettled', data: { upload_id: uploadId, at: ctx.occurredAt } };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LEDGER_STREAM, toEventData([event], ctx, newEventId), { expectedRevision: 'any' });
}

/** The provider's upload ids, newest first. */
export async function listedUploads(ports: UploadStreamPorts, ukprn: string): Promise<string[]> {
  const recorded = await ports.trainees.eventStore.readStream(UPLOAD_LIST_STREAM_PREFIX + ukprn);
  return recorded.flatMap((r) => (r.type === 'UploadListed' ? [(r.data as UploadListed['data']).upload_id] : [])).reverse();
}

/** The ids of the uploads listed in the ledger and not settled, oldest first (each once). */
export async function unsettledUploads(ports: UploadStreamPorts): Promise<string[]> {
  const unsettled = new Set<string>();
  for (const r of await ports.trainees.eventStore.readStream(UPLOAD_LEDGER_STREAM)) {
    const id = (r.data as { upload_id?: unknown } | null)?.upload_id;
    if (typeof id !== 'string') continue;
    if (r.type === 'UploadListed') unsettled.add(id);
    else if (r.type === 'UploadSettled') unsettled.delete(id);
  }
  return [...unsettled];
}
