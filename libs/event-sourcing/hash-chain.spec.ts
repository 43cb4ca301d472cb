import { createHash } from 'node:crypto';
import {
  CHAIN_VERSION,
  chainEvent,
  chainHash,
  chainHashV2,
  chainHeadHash,
  eventHash,
  readChainKeys,
  storedTextOf,
  streamHeadOf,
  withoutChainKeys,
} from './hash-chain';
import { STREAM, storedStream } from './testing/chained-streams';
import { VERSION_1_HEAD, VERSION_1_STREAM, VERSION_1_STREAM_ID } from './testing/version-1-stream';
import { logPosition } from './event-store.port';
import { checkStreamChain } from './chain-check';

describe('the hash chain of a stream', () => {
  const text = (revision: number, data: string, metadata: string, type = 'TraineeRegistered') => ({
    streamId: STREAM,
    revision,
    id: `00000000-0000-4000-8000-00000000000${revision}`,
    type,
    data,
    metadata,
  });

  it('hashes version 1 by its documented text: previous hash, stream, revision and type, then data and metadata as stored', () => {
    const hashed = `${JSON.stringify([null, STREAM, 0, 'TraineeRegistered'])}\n{"a":1}\n{"schemaVersion":1,"previousHash":null}`;
    expect(chainHash(null, STREAM, 0, 'TraineeRegistered', '{"a":1}', '{"schemaVersion":1,"previousHash":null}')).toBe(
      createHash('sha256').update(hashed).digest('hex'),
    );
  });

  it('hashes version 2 by its documented text: a JSON header with the event id, its time and the byte lengths, then data and metadata', () => {
    const metadata = '{"schemaVersion":1,"occurredAt":"2026-01-05T10:00:00.000Z","chainVersion":2,"previousHash":null}';
    const data = '{"a":"Zoë"}';
    const e = text(0, data, metadata);
    const header = ['chain/2', null, STREAM, 0, 'TraineeRegistered', e.id, '2026-01-05T10:00:00.000Z', 12, Buffer.byteLength(metadata)];
    const expected = createHash('sha256')
      .update(`${JSON.stringify(header)}\n${data}${metadata}`)
      .digest('hex');
    expect(chainHashV2(null, e, 0, metadata)).toBe(expected);
    expect(eventHash(null, e, readChainKeys(`${metadata.slice(0, -1)},"hash":"${expected}"}`))).toBe(expected);
  });

  it('adds chainVersion, previousHash and hash at the end of the metadata, and reads them back from the text alone', () => {
    const first = chainEvent(null, text(0, '{"a":1}', '{"schemaVersion":1}'));
    expect(JSON.parse(first.metadata)).toEqual({ schemaVersion: 1, chainVersion: CHAIN_VERSION, previousHash: null, hash: first.hash });
    expect(readChainKeys(first.metadata)).toEqual({
      hash: first.hash,
      previousHash: null,
      hashed: '{"schemaVersion":1,"chainVersion":2,"previousHash":null}',
      version: 2,
    });
    const second = chainEvent(first.hash, text(1, '{}', '{}', 'TraineeUpdated'));
    expect(second.metadata).toBe(`{"chainVersion":2,"previousHash":"${first.hash}","hash":"${second.hash}"}`);
    expect(readChainKeys(second.metadata)).toEqual({
      hash: second.hash,
      previousHash: first.hash,
      hashed: `{"chainVersion":2,"previousHash":"${first.hash}"}`,
      version: 2,
    });
  });

  it('binds a version 2 hash to the event id, its time, its stream, revision and type, and to where data ends and metadata begins', () => {
    const e = text(0, '{"a":1}', '{"schemaVersion":1,"occurredAt":"2026-01-05T10:00:00.000Z"}');
    const { hash, metadata } = chainEvent(null, e);
    const keys = readChainKeys(metadata);
    expect(eventHash(null, { ...e, metadata }, keys)).toBe(hash);
    const changed = [
      { ...e, id: '00000000-0000-4000-8000-000000000009' },
      { ...e, streamId: 'trainee-other' },
      { ...e, type: 'TraineeUpdated' },
      { ...e, revision: 1 },
    ];
    for (const c of changed) expect(eventHash(null, c, keys)).not.toBe(hash);
    const otherTime = readChainKeys(metadata.replace('2026-01-05T10:00:00.000Z', '2026-01-05T10:00:00.001Z'));
    expect(eventHash(null, e, otherTime)).not.toBe(hash);
    // The same bytes split otherwise between data and metadata hash otherwise.
    const a = chainHashV2(null, text(0, '{"a":1}', '{"b":2}'), 0, '{"b":2}');
    const b = chainHashV2(null, text(0, '{"a":1}{"b":2}', ''), 0, '');
    expect(a).not.toBe(b);
  });

  it('reads the version an event was chained by: 2 with chainVersion before previousHash, 1 without, 0 with no hash', () => {
    for (const e of VERSION_1_STREAM) expect(readChainKeys(e.metadata).version).toBe(1);
    expect(readChainKeys('{"schemaVersion":1}').version).toBe(0);
    const { metadata } = chainEvent(null, text(0, '{}', '{"schemaVersion":1}'));
    expect(readChainKeys(metadata).version).toBe(2);
    expect(readChainKeys(metadata.replace('"chainVersion":2', '"chainVersion":3')).version).toBe(1);
  });

  it('still verifies a stream chained by version 1 (stored texts of then), and chains version 2 events onto it', () => {
    expect(checkStreamChain(VERSION_1_STREAM)).toEqual({ faults: [], headHash: VERSION_1_HEAD });
    expect(chainHeadHash(VERSION_1_STREAM)).toBe(VERSION_1_HEAD);
    const next = { ...text(3, '{"n":3}', '{"schemaVersion":1}', 'TraineeUpdated'), streamId: VERSION_1_STREAM_ID };
    const chained = chainEvent(VERSION_1_HEAD, next);
    const mixed = [...VERSION_1_STREAM, { ...next, metadata: chained.metadata }];
    expect(checkStreamChain(mixed)).toEqual({ faults: [], headHash: chained.hash });
  });

  it('finds no hash in metadata stored before the chain began, or whose end was altered', () => {
    expect(readChainKeys('{"schemaVersion":1}')).toEqual({
      hash: null,
      previousHash: undefined,
      hashed: '{"schemaVersion":1}',
      version: 0,
    });
    const { metadata } = chainEvent(null, text(0, '{}', '{"schemaVersion":1}', 'T'));
    expect(readChainKeys(metadata.replace(/"hash":"(.)/, '"hash":"X')).hash).toBeNull();
    expect(readChainKeys(`${metadata.slice(0, -1)} }`).hash).toBeNull();
    expect(readChainKeys(metadata.replace('"hash"', '"hush"')).hash).toBeNull();
  });

  it('drops chain keys a caller passes (an event copied from an export), and keeps an object without them as it is', () => {
    const plain = { schemaVersion: 1 };
    expect(withoutChainKeys(plain)).toBe(plain);
    expect(withoutChainKeys({ schemaVersion: 1, previousHash: null, hash: 'ab' })).toEqual({ schemaVersion: 1 });
    expect(withoutChainKeys({ schemaVersion: 1, chainVersion: 2, previousHash: null, hash: 'ab' })).toEqual({ schemaVersion: 1 });
  });

  it("gives a stream's head hash as the check of the stream finds it: stored, computed over older events, or after a fault", () => {
    expect(chainHeadHash([])).toBeNull();
    const chained = storedStream(4);
    expect(chainHeadHash(chained)).toBe(readChainKeys(chained[3].metadata).hash);
    const older = storedStream(0, 3);
    expect(readChainKeys(older[2].metadata).hash).toBeNull();
    expect(chainHeadHash(older)).toBe(checkStreamChain(older).headHash);
    const altered = storedStream(3, 2).map((e) => (e.revision === 1 ? { ...e, data: e.data.replace('"n":1', '"n":9') } : e));
    expect(checkStreamChain(altered).faults).not.toEqual([]);
    expect(chainHeadHash(altered)).toBe(checkStreamChain(altered).headHash);
  });

  it('hands back the head of an event read: its revision, and its stored hash as the link (null before the chain)', () => {
    const [first] = storedStream(1);
    const read = {
      id: first.id,
      streamId: STREAM,
      streamRevision: 0,
      position: logPosition(9),
      type: first.type,
      data: JSON.parse(first.data),
      metadata: JSON.parse(first.metadata),
    };
    expect(streamHeadOf(read)).toEqual({ revision: 0, link: readChainKeys(first.metadata).hash });
    expect(storedTextOf(read)).toEqual({ ...first, position: 9 });
    expect(streamHeadOf({ ...read, streamRevision: 4, metadata: { schemaVersion: 1, occurredAt: 'x' } })).toEqual({
      revision: 4,
      link: null,
    });
  });
});
