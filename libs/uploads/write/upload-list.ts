/**
 * A provider's uploads, newest first: each upload received is listed in the provider's own stream
 * `uploadlist-<ukprn>` (an `UploadListed` naming it, appended before the upload's first event), so
 * the list reads one stream and the uploads of its page, never the whole log. An entry whose upload
 * has no stream (a stop between the two appends) is left out.
 */
import { newEventId, registerEventSchemas, toEventData, type LogPosition, type WriteContext } from '@app/event-sourcing';
import type { UploadStreamPorts } from './upload.ports';

/** Stream category of the providers' upload lists: `uploadlist-<ukprn>`. */
export const UPLOAD_LIST_STREAM_PREFIX = 'uploadlist-';

/** An upload listed for its provider. */
export interface UploadListed {
  type: 'UploadListed';
  data: { upload_id: string; at: string };
}
registerEventSchemas({ UploadListed: 1 });

/** Lists `uploadId` for the provider of `ctx` (append-only; any revision). */
export async function listUpload(ports: UploadStreamPorts, ukprn: string, uploadId: string, ctx: WriteContext): Promise<void> {
  const event: UploadListed = { type: 'UploadListed', data: { upload_id: uploadId, at: ctx.occurredAt } };
  await ports.trainees.eventStore.appendToStream(UPLOAD_LIST_STREAM_PREFIX + ukprn, toEventData([event], ctx, newEventId), {
    expectedRevision: 'any',
  });
}

/** The provider's upload ids, newest first. */
export async function listedUploads(ports: UploadStreamPorts, ukprn: string): Promise<string[]> {
  const recorded = await ports.trainees.eventStore.readStream(UPLOAD_LIST_STREAM_PREFIX + ukprn);
  return recorded.flatMap((r) => (r.type === 'UploadListed' ? [(r.data as UploadListed['data']).upload_id] : [])).reverse();
}

/** Every listed upload id of every provider (a resumed process looks for unfinished work among them). */
export async function allListedUploads(ports: UploadStreamPorts): Promise<string[]> {
  const ids: string[] = [];
  let from: LogPosition | undefined;
  for (;;) {
    const batch = await ports.trainees.eventStore.readAll({
      fromPosition: from,
      maxCount: 1000,
      filter: { streamPrefixes: [UPLOAD_LIST_STREAM_PREFIX] },
    });
    for (const r of batch) if (r.type === 'UploadListed') ids.push((r.data as UploadListed['data']).upload_id);
    if (batch.length < 1000) return ids;
    from = batch[batch.length - 1].position;
  }
}
