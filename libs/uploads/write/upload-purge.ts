/**
 * Uploads purged once their time is up: `UPLOAD_RETENTION_DAYS` (30) after an upload ended (its
 * last event, never while it is being submitted), `UploadPurged` is appended, the upload's data key
 * destroyed and its parts deleted from the upload store (its file and row messages: zeroed, the
 * WAL truncated on SQLite), so nothing of them can be read anywhere: not in the store, nor, sealed,
 * in a backup or export made before (docs/DESIGN.md "Uploads"). The upload then answers 404 and
 * leaves its provider's list. Safe to run again: a purged upload whose key, parts or listing a stop
 * left is finished. A purged upload so finished is settled in the ledger, so later runs read only
 * the uploads still unsettled. An upload listed but never received (a stop, or a store failure,
 * between its listing and its first event) is forgotten the same way an hour after it was listed.
 */
import { writeContext } from '@app/trainees/write';
import { uploadPurgeDueAt } from '@app/uploads/decider';
import { delistUpload, listedUploads, settleUpload, unsettledEntries } from './upload-list';
import { readUpload, runUploadCommand, uploadKeyId } from './upload-stream';
import type { UploadStreamPorts } from './upload.ports';

/** How long after its listing an upload without a stream is taken to be one a stop or a failure left: an hour. */
export const UNRECEIVED_FORGOTTEN_AFTER_MS = 3_600_000;

/** A background write's context: the provider, no token or request. */
function backgroundContext(ukprn: string, apiVersion: string | null, at: string) {
  return writeContext({ ukprn, tokenId: null, apiVersion: apiVersion ?? '', requestId: null }, at);
}

/** Purges every upload due at `now` (UTC); returns how many it purged now. */
export async function purgeDueUploads(ports: UploadStreamPorts, now: Date): Promise<number> {
  let purged = 0;
  for (const entry of await unsettledEntries(ports)) {
    const id = entry.upload_id;
    const { state } = await readUpload(ports, id);
    if (!state.exists) {
      if (Date.parse(entry.at) + UNRECEIVED_FORGOTTEN_AFTER_MS <= now.getTime()) await forgetAndSettle(ports, id, entry.ukprn, null, now);
      continue;
    }
    if (!state.purged) {
      const due = uploadPurgeDueAt(state);
      if (due === null || Date.parse(due) > now.getTime()) continue;
      const at = now.toISOString();
      await runUploadCommand(ports, id, backgroundContext(state.ukprn!, state.api_version, at), () => ({
        type: 'PurgeUpload',
        upload_id: id,
        now: at,
      }));
      purged++;
    }
    await forgetAndSettle(ports, id, state.ukprn, state.api_version, now);
  }
  return purged;
}

/**
 * What follows a purge, each step safe to repeat: the upload's data key destroyed if a stop left it,
 * its parts deleted from the upload store, the upload taken out of its provider's list, then
 * settled in the ledger.
 */
async function forgetAndSettle(
  ports: UploadStreamPorts,
  id: string,
  ukprn: string | null,
  apiVersion: string | null,
  now: Date,
): Promise<void> {
  if (ports.keys && (await ports.keys.existingKey(uploadKeyId(id))) instanceof Buffer) await ports.keys.destroy(uploadKeyId(id), now);
  await ports.files.delete(id);
  const ctx = backgroundContext(ukprn ?? '', apiVersion, now.toISOString());
  if (ukprn !== null) await delistUpload(ports, ukprn, id, ctx);
  await settleUpload(ports, id, ctx);
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
      await runUploadCommand(ports, id, backgroundContext(ukprn, state.api_version, at), () => ({
        type: 'PurgeUpload',
        upload_id: id,
        now: at,
        erased_trainee: traineeId,
      }));
      purged++;
    }
    await forgetAndSettle(ports, id, ukprn, state.api_version, now);
  }
  return purged;
}
