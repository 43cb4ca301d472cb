import { Database } from '@app/sqlite';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataKeyNotOpened, DataKeys, isSealed, openFields, type DataKeyStore } from '@app/personal-data';
import { TRAINEE_PERSONAL_DATA } from '@app/trainees/decider';
import type { SealedCheck } from '@app/backup';
import { eventIdText } from '../event-log/packed-ids';

/** Problems named one by one at most; the rest are counted. */
const PROBLEMS_NAMED = 20;

/**
 * Opens every sealed event of the log copy `<dir>/events.sqlite` with the data keys of the key store
 * copy `<dir>/keys.sqlite` (both read-only) under `kek` (docs/DESIGN.md "Personal data"): each
 * opens, or is counted as its erased trainee's; a trainee without a key, a key that does not open
 * under `kek`, and a box that does not open are problems, named per trainee (the first 20, then a
 * count). Memory: one key per trainee at a time.
 */
export async function openSealedCopy(dir: string, kek: Buffer): Promise<SealedCheck> {
  const check: SealedCheck = { opened: 0, erased: 0, problems: [] };
  let unnamed = 0;
  const problem = (text: string) => (check.problems.length < PROBLEMS_NAMED ? check.problems.push(text) : unnamed++);
  const keysFile = join(dir, 'keys.sqlite');
  const keyDb = existsSync(keysFile) ? new Database(keysFile, { readonly: true }) : null;
  const log = new Database(join(dir, 'events.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const keys = new DataKeys(readOnlyKeys(keyDb), kek, { cacheSize: 1 });
    const prefix = TRAINEE_PERSONAL_DATA.streamPrefix;
    const rows = log
      .prepare<[], [string, number, string | Buffer, string, string]>(
        `SELECT stream_id, revision, id, type, data FROM events WHERE instr(data, '"sealed"') > 0 ORDER BY stream_id, revision`,
      )
      .raw(true);
    let current = null as { streamId: string; key: Buffer | 'erased' | null } | null;
    for (const [streamId, revision, eventId, type, text] of rows.iterate()) {
      const data = JSON.parse(text) as unknown;
      if (!streamId.startsWith(prefix) || !isSealed(data)) continue;
      if (current?.streamId !== streamId) {
        current = { streamId, key: null };
        try {
          current.key = await keys.existingKey(streamId.slice(prefix.length));
          if (current.key === null) problem(`keys.sqlite has no data key for ${streamId}: its sealed events cannot be opened`);
        } catch (err) {
          if (!(err instanceof DataKeyNotOpened)) throw err;
          problem(`keys.sqlite: the data key of ${streamId} does not open under this service key`);
        }
      }
      if (current.key === null) continue;
      if (current.key === 'erased') {
        check.erased++;
        continue;
      }
      try {
        openFields(data, current.key, { streamId, eventId: eventIdText(eventId), type });
        check.opened++;
      } catch {
        problem(`events.sqlite: ${streamId} revision ${revision}: its sealed values do not open with its data key`);
      }
    }
  } finally {
    log.close();
    keyDb?.close();
  }
  if (unnamed > 0) check.problems.push(`and ${unnamed} more trainees' sealed events that do not open`);
  return check;
}

/** The key store copy as `DataKeys` reads it: `get` only (a backup is never written to). */
function readOnlyKeys(db: Database.Database | null): DataKeyStore {
  const get = db?.prepare<[string], { wrapped: Buffer | null }>(`SELECT wrapped FROM data_keys WHERE trainee_id = ?`);
  const refused = () => Promise.reject(new Error('a backup key store is read-only'));
  return {
    get: async (traineeId) => {
      const row = get?.get(traineeId);
      return row === undefined ? null : (row.wrapped ?? 'erased');
    },
    ensure: refused,
    reserve: refused,
    destroy: refused,
    wrappedAfter: refused,
    replace: refused,
    // A copy no one erases in: nothing to forget.
    erasedSince: async () => ({ mark: 0, traineeIds: [] }),
    close: async () => undefined,
  };
}
