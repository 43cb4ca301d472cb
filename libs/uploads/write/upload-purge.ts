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
 * An erasure purges at once the uploads that hold a row of the erased trainee
 * (`purgeUploadsOfErased`), and one being submitted as its submit ends (`runUploadWork`).
 */
import { writeContext } from '@app/trainees/write';
import { uploadPurgeDueAt } from '@app/uploads/decider';
import { delistUpload, providerUploads, settleUpload, unsettledEntries } from './upload-list';
import { UploadRowMarks } from './upload-row-marks';
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
 * its parts deleted from the upload store, the upload taken out of its provider's list (`ukprn`; null:
 * not known), then settled in the ledger. Throws what the stores throw (a later purge run finishes).
 */
export async function forgetAndSettle(
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

/** The trainee an erasure forgets: its id, and the marks of its values (`identityMarks`, libs/trainees/decider). */
export interface ErasedPerson {
  traineeId: string;
  marks: ReadonlySet<string>;
}

/** What {@link purgeUploadsOfErased} did: uploads purged now, and uploads being submitted whose end will purge them. */
export interface ErasedPersonUploads {
  purged: number;
  purgedWhenSubmitted: number;
}

/**
 * Purges every upload of `ukprn` that holds a row of `person`, an erased trainee (docs/DESIGN.md
 * "Personal data"), whatever its state: a row that wrote to it, or a row of its file whose marks
 * meet the person's (`rows` reads each file once for a run of erasures, `UploadRowMarks`). One
 * received or checked is purged at once (a check under way finds it purged and ends, leaving no
 * part); one being submitted is marked, and its submit's end purges it (`UploadPurgeRequested`).
 * Uploads delisted before are not read again; one purged whose forgetting a stop left is finished.
 * Safe to repeat. Throws what the stores throw.
 */
export async function purgeUploadsOfErased(
  ports: UploadStreamPorts,
  ukprn: string,
  person: ErasedPerson,
  now: Date,
  rows: UploadRowMarks = new UploadRowMarks(),
): Promise<ErasedPersonUploads> {
  const done: ErasedPersonUploads = { purged: 0, purgedWhenSubmitted: 0 };
  const hashes = [...person.marks].map((m) => rows.hash(m));
  for (const entry of await providerUploads(ports, ukprn)) {
    if (entry.delisted) continue;
    const id = entry.upload_id;
    let { state } = await readUpload(ports, id);
    if (!state.exists) continue;
    if (!state.purged) {
      const wrote = state.submission.some((t) => t.trainee_id === person.traineeId);
      if (!wrote && !(await rows.holdsAny(ports, id, state, hashes))) continue;
      const at = now.toISOString();
      state = await runUploadCommand(ports, id, backgroundContext(ukprn, state.api_version, at), () => ({
        type: 'PurgeUpload',
        upload_id: id,
        now: at,
        erased_trainee: person.traineeId,
      }));
      if (!state.purged) {
        done.purgedWhenSubmitted++;
        continue;
      }
      done.purged++;
    }
    rows.forget(id);
    await forgetAndSettle(ports, id, ukprn, state.api_version, now);
  }
  return done;
}
