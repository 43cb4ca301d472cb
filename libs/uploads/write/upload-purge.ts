/**
 * Uploads purged once their time is up: `UPLOAD_RETENTION_DAYS` (30) after an upload ended (its
 * last event, never while it is being submitted), `UploadPurged` is appended and the upload's data
 * key destroyed, so its file, file name and row messages can no longer be read anywhere the log
 * went, backups and exports included (docs/DESIGN.md "Personal data"). The upload then answers 404.
 * Safe to run again: a purged upload whose key a stop left in place has it destroyed. A purged
 * upload whose key is gone is settled in the ledger, so later runs read only the uploads still
 * unsettled (docs/DESIGN.md "Uploads").
 */
import { writeContext } from '@app/trainees/write';
import { uploadPurgeDueAt } from '@app/uploads/decider';
import { listedUploads, settleUpload, unsettledUploads } from './upload-list';
import { readUpload, runUploadCommand, uploadKeyId } from './upload-stream';
import type { UploadStreamPorts } from './upload.ports';

/** Purges every upload due at `now` (UTC); returns how many it purged now. */
export async function purgeDueUploads(ports: UploadStreamPorts, now: Date): Promise<number> {
  let purged = 0;
  for (const id of await unsettledUploads(ports)) {
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
    await destroyKeyAndSettle(ports, id, state.ukprn!, state.api_version!, now);
  }
  return purged;
}

/** Destroys a purged upload's data key if a stop left it, then settles the upload in the ledger. */
async function destroyKeyAndSettle(ports: UploadStreamPorts, id: string, ukprn: string, apiVersion: string, now: Date): Promise<void> {
  if (ports.keys && (await ports.keys.existingKey(uploadKeyId(id))) instanceof Buffer) await ports.keys.destroy(uploadKeyId(id), now);
  const caller = { ukprn, tokenId: null, apiVersion, requestId: null };
  await settleUpload(ports, id, writeContext(caller, now.toISOString()));
}

/**
 * Purges at once every upload of `ukprn` one of whose rows wrote to `traineeId`, an erased trainee
 * (docs/DESIGN.md "Personal data": no erased trainee's values stay in an upload's stored rows); an
 * upload still being submitted is left to its own purge. Returns how many it purged now.
 */
export async function purgeUploadsOfErased(ports: UploadStreamPorts, ukprn: string, traineeId: string, now: Date): Promise<number> {
  let purged = 0;
  for (const id of await listedUploads(ports, ukprn)) {
    const { state } = await readUpload(ports, id);
    if (!state.exists || state.status === 'in_progress' || !state.submission.some((t) => t.trainee_id === traineeId)) continue;
    if (!state.purged) {
      const at = now.toISOString();
      const caller = { ukprn, tokenId: null, apiVersion: state.api_version!, requestId: null };
      await runUploadCommand(ports, id, writeContext(caller, at), () => ({
        type: 'PurgeUpload',
        upload_id: id,
        now: at,
        erased_trainee: traineeId,
      }));
      purged++;
    }
    await destroyKeyAndSettle(ports, id, ukprn, state.api_version!, now);
  }
  return purged;
}
