/**
 * Runs the upload store contract (test/contract/upload-files.contract.ts) against the SQLite
 * adapter on a fresh temporary data directory per test, its writes on the caller's connection and in
 * a thread of their own (as the API opens it); `reopen` opens another connection on the same file
 * (as another process would).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteUploadFiles } from '@app/stores/sqlite';
import { describeUploadFilesContract } from './upload-files.contract';

for (const writesInThread of [false, true]) {
  describeUploadFilesContract(`SqliteUploadFiles${writesInThread ? ', its writes in a thread of their own' : ''}`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-files-contract-'));
    const opened = [SqliteUploadFiles.open(dataDir, { writesInThread })];
    return {
      store: opened[0],
      reopen: async () => {
        const another = SqliteUploadFiles.open(dataDir, { writesInThread });
        opened.push(another);
        return another;
      },
      cleanup: async () => {
        for (const s of opened) await s.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  });
}
