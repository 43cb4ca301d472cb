import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepNewFilesPrivate } from './file-modes';

describe('the umask of the service\'s processes (docs/operations.md "File permissions")', () => {
  let dir: string;
  let started: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'file-modes-'));
    started = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(started);
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes files 0600 and directories 0700 after a start under a umask that would allow more', () => {
    expect(keepNewFilesPrivate()).toBe(0o022);
    writeFileSync(join(dir, 'export.jsonl'), 'x');
    mkdirSync(join(dir, 'backups'));
    expect(statSync(join(dir, 'export.jsonl')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'backups')).mode & 0o777).toBe(0o700);
  });
});
