import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '@app/sqlite';
import { SqlitePageSessionStore } from '../sqlite-page-session-store';
import { STATE_FILE } from '../state-file';
import { copyStateForBackup } from './state-copy';

describe('copyStateForBackup', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'state-copy-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves the uploads page’s sessions out, keeping their table, so a restore signs no one in', async () => {
    const sessions = SqlitePageSessionStore.open(dir);
    const now = Date.now();
    await sessions.add(
      { key: 'k', pool: 'signed-in', owner: '10000001', data: '{}', startedAt: now, expiresAt: now + 60_000 },
      { perOwner: 5, all: 5 },
      now,
    );
    sessions.close();
    const target = join(dir, 'copy.sqlite');
    copyStateForBackup(join(dir, STATE_FILE), target);
    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.prepare('SELECT COUNT(*) AS n FROM page_sessions').get()).toEqual({ n: 0 });
    } finally {
      copy.close();
    }
  });
});
