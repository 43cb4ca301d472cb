import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, type EventStore, checkStreamChain } from '@app/event-sourcing';
import { SqliteEventStore } from '@app/stores/sqlite';
import { keyFingerprint, type HashedHead } from './digest';
import { recordDigest } from './digest-events';
import { digestLog } from './digest-log';
import { digestSection, latestRecordedDigest, readStoredStream } from './stream-digest';

const noted = (n: number) => ({
  id: newEventId(),
  type: 'Noted',
  data: { n },
  metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' },
});
const events = (count: number) => Array.from({ length: count }, (_, n) => noted(n));

describe('a stream’s evidence for the history report', () => {
  let dir: string;
  let store: SqliteEventStore;
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'stream-digest-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads one stream as stored, among streams whose ids sort beside it', async () => {
    await store.appendToStream('trainee-T0', events(1001)); // more than one read's worth, sorted just before
    await store.appendToStream('trainee-T', events(1));
    await store.appendToStream('trainee-T1', events(3));
    await store.appendToStream('trainee-T10', events(2));
    await store.appendToStream('trainee-T2', events(1));
    const own = await readStoredStream(store, 'trainee-T1');
    expect(own.map((e) => [e.streamId, e.revision])).toEqual([
      ['trainee-T1', 0],
      ['trainee-T1', 1],
      ['trainee-T1', 2],
    ]);
    const all = await store.readStoredStreams({ maxCount: 10_000 });
    expect(own).toEqual(all.filter((e) => e.streamId === 'trainee-T1'));
    expect(await readStoredStream(store, 'trainee-T3')).toEqual([]);
    expect((await readStoredStream(store, 'trainee-T0')).length).toBe(1001);
  });

  it('reads a store without readStoredStreams through readStream, to the same chain', async () => {
    await store.appendToStream('trainee-T1', events(4));
    const portOnly = { readStream: (id: string) => store.readStream(id) } as unknown as EventStore;
    const viaPort = await readStoredStream(portOnly, 'trainee-T1');
    const stored = await readStoredStream(store, 'trainee-T1');
    expect(viaPort.map((e) => e.position)).toEqual(stored.map((e) => e.position));
    expect(checkStreamChain(viaPort)).toEqual({ faults: [], headHash: checkStreamChain(stored).headHash });
  });

  it('finds the latest digest recorded, who signed it and where it was recorded; none before the first', async () => {
    expect(await latestRecordedDigest(store)).toBeNull();
    await store.appendToStream('trainee-T1', events(2));
    const first = await digestLog(store, privateKey);
    await recordDigest(store, first.digest, 'first auditor');
    await store.appendToStream('trainee-T1', events(1));
    const second = await digestLog(store, privateKey);
    const at = await recordDigest(store, second.digest, 'second auditor');
    expect(await latestRecordedDigest(store)).toEqual({ digest: second.digest, by: 'second auditor', recordedAt: at });
  });

  it('says what the digest covers of the stream: its head at the position, the events after, the signature and key', async () => {
    expect(digestSection(null, [])).toBeNull();
    await store.appendToStream('trainee-T1', events(3));
    const signed = await digestLog(store, privateKey);
    await recordDigest(store, signed.digest, 'auditor');
    await store.appendToStream('trainee-T1', events(2));
    await store.appendToStream('trainee-T2', events(1));
    const recorded = (await latestRecordedDigest(store))!;
    const head = signed.heads.find((h) => h.streamId === 'trainee-T1')!;

    const section = digestSection(recorded, await readStoredStream(store, 'trainee-T1'))!;
    expect(section).toEqual({
      position: signed.digest.position,
      signedAt: signed.digest.time,
      signedBy: 'auditor',
      root: signed.digest.root,
      streams: 1,
      keyFingerprint: keyFingerprint(publicKey),
      signatureHolds: true,
      trustedKey: null,
      head,
      laterEvents: 2,
      included: null,
    });
    expect(head.revision).toBe(2);

    const later = digestSection(recorded, await readStoredStream(store, 'trainee-T2'))!;
    expect([later.head, later.laterEvents]).toEqual([null, 1]);

    const forged = { ...recorded, digest: { ...recorded.digest, root: '00'.repeat(32) } };
    expect(digestSection(forged, await readStoredStream(store, 'trainee-T1'))!.signatureHolds).toBe(false);

    const asked: HashedHead[] = [];
    const prove = (h: HashedHead) => (asked.push(h), h.hash === head.hash);
    expect(digestSection(recorded, await readStoredStream(store, 'trainee-T1'), prove)!.included).toBe(true);
    expect(asked).toEqual([head]);
    expect(digestSection(recorded, await readStoredStream(store, 'trainee-T2'), prove)!.included).toBeNull();

    const trusted = { fingerprint: keyFingerprint(publicKey), name: 'the key given with --fingerprint' };
    expect(digestSection(recorded, await readStoredStream(store, 'trainee-T1'), undefined, trusted)!.trustedKey).toEqual(trusted);
  });
});
