import type { BackupFiles } from '@app/backup';
import { sqliteVersion } from '@app/sqlite';
import { READ_STORE_FILE } from '../read-models/read-store-file';
import { SqliteDataKeyStore } from '../sqlite-data-key-store';
import { STATE_FILE } from '../state-file';
import { moveStateOutOfReadStore } from '../state-migration';
import { BACKUP_PARTS } from './backup-parts';
import { copyInThread } from './copy-in-thread';
import { keyVersionUse } from './key-versions';
import { auditLogCopy } from './log-copy';
import { openSealedCopy } from './sealed-copy';

/**
 * The embedded stores' files as a backup copies and checks them (`BackupFiles`; docs/operations.md
 * "Backups and restore"): {@link BACKUP_PARTS}, each copied online on a thread of its own
 * (`copyInThread`: `VACUUM INTO`, the state file without its kept answers and webhook payloads),
 * the log copy's chains checked on two threads (`auditLogCopy`), its sealed events opened with the
 * key store copy (`openSealedCopy`), the key versions the copies use counted (`keyVersionUse`).
 */
export const SQLITE_BACKUP_FILES: BackupFiles = {
  parts: BACKUP_PARTS,
  logFile: 'events.sqlite',
  keysFile: 'keys.sqlite',
  stateFile: STATE_FILE,
  olderStateFile: READ_STORE_FILE,
  engineVersion: sqliteVersion,
  readyForCopy(dataDir) {
    try {
      moveStateOutOfReadStore(dataDir);
    } catch (err) {
      throw new Error(
        `the idempotency keys and webhook state are still in ${dataDir}/read-models.sqlite and could not be moved into state.sqlite ` +
          `(${err instanceof Error ? err.message : String(err)}): start the service once, which moves them, then back up`,
      );
    }
  },
  copy: (part, source, target, onBytes) => copyInThread({ source, target, how: part.how }, onBytes),
  checkLogCopy: auditLogCopy,
  openSealedCopy,
  keyVersionUse,
  async destroyKeys(dataDir, erased) {
    let destroyed = 0;
    const keys = SqliteDataKeyStore.open(dataDir);
    try {
      for (const e of erased) if (await keys.destroy(e.traineeId, e.at)) destroyed++;
    } finally {
      await keys.close();
    }
    return destroyed;
  },
};
