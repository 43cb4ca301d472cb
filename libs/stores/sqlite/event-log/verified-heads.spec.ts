import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { VerifiedHeads } from './verified-heads';

const HASH = (n: number) => String(n).padStart(64, '0');

describe('VerifiedHeads: the checked heads an event log connection keeps (docs/DESIGN.md "Verifiable history")', () => {
  let dir: string;
  const open: Database.Database[] = [];
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verified-heads-'))));
  afterEach(() => {
    for (const db of open.splice(0)) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const connect = () => {
    const db = new Database(path.join(dir, 'log.sqlite'));
    db.pragma('journal_mode = WAL');
    open.push(db);
    return db;
  };

  it('answers a head only at the revision it was kept at', () => {
    const heads = new VerifiedHeads(connect());
    heads.sync();
    heads.set('trainee-1', 3, HASH(3));
    expect(heads.get('trainee-1', 3)).toBe(HASH(3));
    expect(heads.get('trainee-1', 2)).toBeUndefined();
    expect(heads.get('trainee-1', 4)).toBeUndefined();
    expect(heads.get('trainee-2', 3)).toBeUndefined();
  });

  it('forgets every head once another connection has committed, not after its own commits', () => {
    const own = connect();
    own.exec('CREATE TABLE t (x)');
    const heads = new VerifiedHeads(own);
    heads.sync();
    heads.set('trainee-1', 0, HASH(0));
    own.exec('INSERT INTO t VALUES (1)');
    heads.sync();
    expect(heads.get('trainee-1', 0)).toBe(HASH(0));
    connect().exec('INSERT INTO t VALUES (2)');
    heads.sync();
    expect(heads.get('trainee-1', 0)).toBeUndefined();
  });

  it('keeps at most its capacity, dropping the least recently used first', () => {
    const heads = new VerifiedHeads(connect(), 2);
    heads.sync();
    heads.set('trainee-1', 0, HASH(1));
    heads.set('trainee-2', 0, HASH(2));
    expect(heads.get('trainee-1', 0)).toBe(HASH(1));
    heads.set('trainee-3', 0, HASH(3));
    expect([heads.get('trainee-1', 0), heads.get('trainee-2', 0), heads.get('trainee-3', 0)]).toEqual([HASH(1), undefined, HASH(3)]);
  });
});
