/**
 * Runs the upload store contract (test/contract/upload-files.contract.ts) against the SQLite
 * adapter on a fresh temporary data directory per test; `reopen` opens another connection on the
 * same file (as another process would).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteUploadFiles } from '@app/stores/sqlite';
import { describeUploadFilesContract } from './upload-files.contract';

describeUploadFilesContract('SqliteUploadFiles', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-files-contract-'));
  const opened = [SqliteUploadFiles.open(dataDir)];
  return {
    store: opened[0],
    reopen: async () => {
      const another = SqliteUploadFiles.open(dataDir);
      opened.push(another);
      return another;
    },
    cleanup: async () => {
      for (const s of opened) await s.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
