import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storageFaultOf } from './storage-fault';

const coded = (code: string) => Object.assign(new Error('x'), { code });

describe('storageFaultOf (docs/operations.md "When the disk fills")', () => {
  it.each([
    ['SQLITE_FULL', 'full'],
    ['ENOSPC', 'full'],
    ['EDQUOT', 'full'],
    ['SQLITE_READONLY', 'read-only'],
    ['SQLITE_READONLY_DBMOVED', 'read-only'],
    ['EROFS', 'read-only'],
    ['SQLITE_IOERR', 'unwritable'],
    ['SQLITE_IOERR_WRITE', 'unwritable'],
    ['SQLITE_IOERR_FSYNC', 'unwritable'],
    ['SQLITE_CANTOPEN', 'unwritable'],
    ['EIO', 'unwritable'],
  ])('%s is a storage fault: %s', (code, fault) => {
    expect(storageFaultOf(coded(code))).toBe(fault);
  });

  it.each([
    'SQLITE_BUSY',
    'SQLITE_LOCKED',
    'SQLITE_CONSTRAINT_UNIQUE',
    'SQLITE_CORRUPT',
    'SQLITE_READONLYX',
    'ENOENT',
    'EACCES',
    'ECONNRESET',
  ])('%s is not', (code) => expect(storageFaultOf(coded(code))).toBeNull());

  it('is null for an error without a code, a value that is no error, and a numeric code', () => {
    expect(storageFaultOf(new Error('database or disk is full'))).toBeNull();
    expect(storageFaultOf('SQLITE_FULL')).toBeNull();
    expect(storageFaultOf(null)).toBeNull();
    expect(storageFaultOf(Object.assign(new Error('x'), { code: 28 }))).toBeNull();
  });

  it('finds the code of a wrapped error in its cause chain', () => {
    expect(storageFaultOf(new Error('storing failed', { cause: new Error('inner', { cause: coded('SQLITE_FULL') }) }))).toBe('full');
  });

  it("classifies better-sqlite3's own error for a write to a database opened read-only", () => {
    const dir = mkdtempSync(join(tmpdir(), 'storage-fault-'));
    try {
      new Database(join(dir, 'a.sqlite')).exec('CREATE TABLE t (x)').close();
      const db = new Database(join(dir, 'a.sqlite'), { readonly: true });
      let error: unknown = null;
      try {
        db.exec('INSERT INTO t VALUES (1)');
      } catch (err) {
        error = err;
      } finally {
        db.close();
      }
      expect(storageFaultOf(error)).toBe('read-only');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
