/**
 * Runs the schools directory contract (test/contract/school-directory.contract.ts) against the
 * SQLite adapter on a fresh temporary data directory per test; `reopen` opens another connection
 * on the same file (as another process would).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteSchoolDirectory } from '@app/stores/sqlite';
import { describeSchoolDirectoryContract } from './school-directory.contract';

describeSchoolDirectoryContract('SqliteSchoolDirectory', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'school-directory-contract-'));
  const opened = [SqliteSchoolDirectory.open(dataDir)];
  return {
    directory: opened[0],
    reopen: async () => {
      const another = SqliteSchoolDirectory.open(dataDir);
      opened.push(another);
      return another;
    },
    cleanup: async () => {
      for (const d of opened) d.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
