/**
 * Uploads purged `UPLOAD_RETENTION_DAYS` after they ended (never while submitting): `UploadPurged`, data key destroyed, parts deleted,
 * so nothing of them can be read anywhere, backups and exports included (docs/DESIGN.md "Uploads"). Safe to rerun; finished uploads
 * are settled in the ledger. An erasure purges at once the uploads holding the erased trainee's row.
 */
import { writeContext } from '@app/trainees/write';
import { uploadPurgeDueAt } from '@app/uploads/decider';
import { delistUpload, markLedger, providerUploads, settleUpload, unsettledEntries } from './upload-list';
import { UploadRowMarks } from './upload-row-marks';
import { readUpload, runUploadCommand, uploadKeyId } from './upload-stream';
import type { UploadStreamPorts } from './upload.ports';

/** An upload listed but without a stream this long was left by a stop or a failure. */
export const UNRECEIVED_FORGOTTEN_AFTER_MS = 3_600_000;

/** The provider; no token or request. */
function backgroundContext(ukprn: string, apiVersion: string | null, at: string) {
  return writeContext({ ukprn, tokenId: null, apiVersion: apiVersion ?? '', requestId: null }, at);
}

/** How many it purged now. Marks the ledger first where the uploads settled since allow (`markLedger`). */
export async function purgeDueUploads(ports: UploadStreamPorts, now: Date): Promise<number> {
  let purged = 0;
  const entries = await unsettledEntries(ports);
  await markLedger(ports, backgroundContext('', null, now.toISOString()));
  for (const entry of entries) {
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

/** Each step safe to repeat: key destroyed, parts deleted, delisted (`ukprn` null: not known), settled. Throws what the stores throw. */
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

/** `marks`: `identityMarks` of its values. */
export interface ErasedPerson {
  traineeId: string;
  marks: ReadonlySet<string>;
}

/** Purged now, and being submitted (their submit's end purges them). */
export interface ErasedPersonUploads {
  purged: number;
  purgedWhenSubmitted: number;
}

/**
 * Purges `ukprn`'s uploads holding a row of the erased `person` (a row that wrote to it, or whose marks meet the person's), whatever
 * their state: at once, or as a submit ends. Safe to repeat. Throws what the stores throw.
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
