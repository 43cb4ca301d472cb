import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { appendToLedger, ledgerKey, LedgerUnreadable, readLedger, type LedgerEntry } from './erasure-ledger';

const SERVICE_KEY = randomBytes(32);
const KEY = ledgerKey(SERVICE_KEY);
const entry = (n: number): LedgerEntry => ({ trainee_id: `T${n}`, erased_at: `2026-11-27T1${n}:00:00.000Z`, reason: `Request ${n}` });

describe('the erasure ledger', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-spec-'));
    file = join(dir, 'backups', 'erasure-ledger.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The ledger's lines, `edit`ed, written back. */
  const editLines = (edit: (lines: string[]) => string[]) => {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${edit(lines).join('\n')}\n`);
  };

  it('keeps each trainee’s first erasure, in order, each line with a MAC that holds, in a file readable by its user only', () => {
    expect(readLedger(file, KEY)).toEqual({ entries: [], lines: 0, unauthenticated: 0, problems: [] });
    for (const n of [1, 2]) appendToLedger(file, entry(n), KEY);
    appendToLedger(file, { ...entry(3), trainee_id: 'T1' }, KEY);
    expect(readLedger(file, KEY)).toEqual({ entries: [entry(1), entry(2)], lines: 3, unauthenticated: 0, problems: [] });
    expect(readFileSync(file, 'utf8').split('\n')[0]).toMatch(/^\{"trainee_id":"T1",.*"mac":"[0-9a-f]{64}"\}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps its MACs across a rotation: the key is the pinned manifests key’s, not the current version’s', () => {
    const v1 = randomBytes(32);
    const rotated = {
      current: 2,
      versions: new Map([
        [1, v1],
        [2, randomBytes(32)],
      ]),
      pinned: new Map(),
    };
    expect(ledgerKey(rotated).equals(ledgerKey(v1))).toBe(true);
  });

  it('names a line changed, deleted, moved or put in, and lines read under another key', () => {
    for (const n of [1, 2, 3, 4, 5]) appendToLedger(file, entry(n), KEY);
    const original = readFileSync(file, 'utf8');
    const problem = (line: number) => expect.stringContaining(`line ${line}: its MAC does not hold`);

    editLines((lines) => lines.map((l, i) => (i === 2 ? l.replace('"T3"', '"T9"') : l)));
    expect(readLedger(file, KEY).problems).toEqual([problem(3)]);

    writeFileSync(file, original);
    editLines((lines) => lines.filter((_, i) => i !== 1));
    expect(readLedger(file, KEY).problems).toEqual([problem(2)]);

    writeFileSync(file, original);
    editLines(([a, b, ...rest]) => [b, a, ...rest]);
    expect(readLedger(file, KEY).problems).toEqual([problem(1), problem(2), problem(3)]);

    writeFileSync(file, original);
    editLines((lines) => [...lines.slice(0, 2), JSON.stringify(entry(7)), ...lines.slice(2)]);
    expect(readLedger(file, KEY).problems).toEqual([expect.stringContaining('line 3 has no MAC after lines with one'), problem(4)]);

    writeFileSync(file, original);
    expect(readLedger(file, ledgerKey(randomBytes(32))).problems).toHaveLength(5);
    // What a chain cannot show: lines taken from its end.
    editLines((lines) => lines.slice(0, 3));
    expect(readLedger(file, KEY).problems).toEqual([]);
  });

  it('reads an older ledger without MACs as unauthenticated, and chains the lines appended after it', () => {
    const olderFile = join(dir, 'older.jsonl');
    writeFileSync(olderFile, `${[entry(1), entry(2)].map((e) => JSON.stringify(e)).join('\n')}\n`);
    appendToLedger(olderFile, entry(3), KEY);
    expect(readLedger(olderFile, KEY)).toEqual({ entries: [entry(1), entry(2), entry(3)], lines: 3, unauthenticated: 2, problems: [] });
  });

  it('names the first line that is not an entry', () => {
    writeFileSync(
      join(dir, 'ledger.jsonl'),
      '{"trainee_id":"T1","erased_at":"2026-11-27T10:00:00.000Z","reason":"r"}\n{"trainee_id":"T2"}\n',
    );
    expect(() => readLedger(join(dir, 'ledger.jsonl'), KEY)).toThrow(LedgerUnreadable);
    expect(() => readLedger(join(dir, 'ledger.jsonl'), KEY)).toThrow(`${join(dir, 'ledger.jsonl')} line 2 is not an erasure ledger entry`);
  });

  it('chains every line when threads append at the same moment: each takes its turn', async () => {
    // Each thread loads this module through tsx (a dev dependency) and appends as soon as all are ready.
    const code = `const { parentPort, workerData } = require('node:worker_threads');
      require(workerData.tsx).register();
      const { appendToLedger } = require(workerData.module);
      const go = new Int32Array(workerData.go);
      parentPort.postMessage('ready');
      Atomics.wait(go, 0, 0);
      const key = Buffer.from(workerData.key, 'base64');
      for (let n = 0; n < 25; n++)
        appendToLedger(workerData.file, { trainee_id: 'W' + workerData.id + '-' + n, erased_at: '2026-11-27T10:00:00.000Z', reason: 'r' }, key);
      parentPort.postMessage('done');`;
    const go = new SharedArrayBuffer(4);
    const data = {
      tsx: require.resolve('tsx/cjs/api'),
      module: require.resolve('./erasure-ledger'),
      file,
      go,
      key: KEY.toString('base64'),
    };
    const workers = [1, 2, 3].map((id) => new Worker(code, { eval: true, workerData: { ...data, id } }));
    const said = (w: Worker, what: string) =>
      new Promise((resolve, reject) => w.on('message', (m) => m === what && resolve(m)).once('error', reject));
    const done = workers.map((w) => said(w, 'done'));
    await Promise.all(workers.map((w) => said(w, 'ready')));
    Atomics.store(new Int32Array(go), 0, 1);
    Atomics.notify(new Int32Array(go), 0);
    await Promise.all(done);
    await Promise.all(workers.map((w) => w.terminate()));
    expect(readLedger(file, KEY)).toMatchObject({ lines: 75, unauthenticated: 0, problems: [] });
  });
});
