import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { newEventId, type EventData } from '@app/event-sourcing';
import { openSqliteEventStore, SqliteDigestTreeStore, type SqliteEventStore } from '@app/stores/sqlite';
import { digestSignatureHolds, type HashedHead } from './digest';
import { LogDoesNotVerify } from './digest-log';
import { digestTree } from './digest-tree';
import { verifyLog } from './verify-log';
import { digestSince } from './digest-since';

const event = (n: number): EventData => ({
  id: newEventId(),
  type: 'Counted',
  data: { n },
  metadata: { schemaVersion: 1, occurredAt: '2026-11-26T10:00:00.000Z' },
});

describe('digestSince: the scheduled digest', () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const now = () => new Date('2026-11-26T12:00:00.000Z');
  let dir: string;
  let store: SqliteEventStore;
  let trees: SqliteDigestTreeStore;
  const next = () => digestSince({ store, recordIn: store, trees, privateKey, by: 'schedule', now });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'digest-since-'));
    store = openSqliteEventStore(dir);
    trees = SqliteDigestTreeStore.open(dir);
    for (let i = 0; i < 3; i++) for (const s of ['a', 'b', 'c']) await store.appendToStream(`counter-${s}`, [event(i)]);
  });
  afterEach(async () => {
    await trees.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('signs a whole digest first, then nothing while only its own stream moved', async () => {
    const first = await next();
    expect(first).not.toBeNull();
    expect(first!.digest).toMatchObject({ position: 9, streams: 3 });
    expect(digestSignatureHolds(first!.digest)).toBe(true);
    expect((await trees.latest())?.digest).toEqual(first!.digest);
    expect(await next()).toBeNull();
    expect(await store.headPosition()).toBe(10);
  });

  it('signs from the streams that moved the root a whole digest of the same position signs', async () => {
    await next();
    await store.appendToStream('counter-b', [event(3), event(4)]);
    await store.appendToStream('counter-new', [event(0)]);
    const second = await next();
    // Every chain checked again as of the same position, as `audit digest` would have then.
    const heads: HashedHead[] = [];
    await verifyLog(store, { toPosition: second!.digest.position, onStream: (h) => heads.push(h) });
    expect(second!.digest.position).toBe(13);
    expect(second!.heads).toEqual(heads);
    expect(second!.digest.root).toBe(digestTree(heads).root);
    expect(second!.digest.streams).toBe(5); // a, b, c, new, and audit-digests itself
    expect((await trees.latest('counter-new'))?.inclusion).toMatchObject({ stream_id: 'counter-new', revision: 0 });
  });

  it('signs nothing when a stream that moved no longer extends its signed head', async () => {
    await next();
    // The stream moves on, then its signed head is altered (the store refuses to append after an altered head).
    await store.appendToStream('counter-a', [event(3)]);
    const db = new Database(join(dir, 'events.sqlite'));
    db.exec('DROP TRIGGER events_no_update;');
    db.prepare(`UPDATE events SET data = '{"n":99}' WHERE stream_id = 'counter-a' AND revision = 2`).run();
    db.close();
    const kept = (await trees.latest())!.digest;
    await expect(next()).rejects.toThrow(LogDoesNotVerify);
    expect((await trees.latest())!.digest).toEqual(kept);
  });
});
