import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteUploadFiles, UploadPartsNotForgotten, UPLOADS_FILE } from './sqlite-upload-files';

/** Whether any file of `dir` holds `needle`. */
function anyFileHolds(dir: string, needle: Buffer): string[] {
  return readdirSync(dir).filter((f) => readFileSync(join(dir, f)).includes(needle));
}

describe('SqliteUploadFiles: a deleted part leaves no byte behind', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'upload-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([false, true])(
    'zeroes a deleted part in the file and truncates the WAL, whatever its size (writes in a thread: %s)',
    async (writesInThread) => {
      const files = SqliteUploadFiles.open(dir, { writesInThread });
      const big = randomBytes(1_048_576);
      const small = randomBytes(300);
      await files.put('u1', 'file', big);
      await files.put('u1', 'messages-x', small);
      await files.put('u2', 'file', Buffer.from('kept'));
      const slices = [big.subarray(500_000, 500_064), big.subarray(0, 64), small.subarray(100, 164)];
      expect(slices.map((s) => anyFileHolds(dir, s).length > 0)).toEqual([true, true, true]);
      expect(await files.delete('u1')).toBe(2);
      expect(slices.map((s) => anyFileHolds(dir, s))).toEqual([[], [], []]);
      expect(Buffer.from((await files.get('u2', 'file'))!).toString()).toBe('kept');
      await files.close();
    },
  );

  it('says so when a reader holds the WAL past the wait, and a later delete finishes it', async () => {
    const files = new SqliteUploadFiles(join(dir, UPLOADS_FILE), { forgetWithinMs: 50 });
    const part = randomBytes(64 * 1024);
    await files.put('u1', 'file', part);
    const reader = new Database(join(dir, UPLOADS_FILE), { readonly: true });
    const read = reader.prepare('SELECT count(*) FROM upload_parts');
    reader.exec('BEGIN');
    read.get();
    await expect(files.delete('u1')).rejects.toThrow(UploadPartsNotForgotten);
    reader.exec('COMMIT');
    reader.close();
    expect(await files.delete('u1')).toBe(0);
    expect(anyFileHolds(dir, part.subarray(1000, 1064))).toEqual([]);
    await files.close();
  });
});
