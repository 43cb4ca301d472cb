/**
 * Uploads purged once their time is up: `UPLOAD_RETENTION_DAYS` (30) after an upload ended (its
 * last event, never while it is being submitted), `UploadPurged` is appended and the upload's data
 * key destroyed, so its file, file name and row messages can no longer be read anywhere the log
 * went, backups and exports included (docs/DESIGN.md "Personal data"). The upload then answers 404.
 * Safe to run again: a purged upload whose key a stop left in place has it destroyed.
 */
import { writeContext } from '@app/trainees/write';
import { uploadPurgeDueAt } from '@app/uploads/decider';
import { allListedUploads } from './upload-list';
import { readUpload, runUploadCommand, uploadKeyId } from './upload-stream';
import type { UploadPorts } from './upload.ports';

/** Purges every upload due at `now` (UTC); returns how many it purged now. */
export async function purgeDueUploads(ports: UploadPorts, now: Date): Promise<number> {
  let purged = 0;
  for (const id of await allListedUploads(ports)) {
    const { state } = await readUpload(ports, id);
    if (!state.exists) continue;
    if (!state.purged) {
      const due = uploadPurgeDueAt(state);
      if (due === null || Date.parse(due) > now.getTime()) continue;
      const at = now.toISOString();
      const caller = { ukprn: state.ukprn!, tokenId: null, apiVersion: state.api_version!, requestId: null };
      await runUploadCommand(ports, id, writeContext(caller, at), () => ({ type: 'PurgeUpload', upload_id: id, now: at }));
      purged++;
    }
    if (ports.keys && (await ports.keys.existingKey(uploadKeyId(id))) instanceof Buffer) await ports.keys.destroy(uploadKeyId(id), now);
  }
  return purged;
}
