import { createHash } from 'node:crypto';
import { chainEvent, chainHash, chainHeadHash, readChainKeys, storedTextOf, streamHeadOf, withoutChainKeys } from './hash-chain';
import { STREAM, storedStream } from './testing/chained-streams';
import { logPosition } from './event-store.port';
import { checkStreamChain } from '@app/audit';

describe('the hash chain of a stream', () => {
  it('hashes the documented text: previous hash, stream, revision and type, then data and metadata as stored', () => {
    const text = `${JSON.stringify([null, STREAM, 0, 'TraineeRegistered'])}\n{"a":1}\n{"schemaVersion":1,"previousHash":null}`;
    expect(chainHash(null, STREAM, 0, 'TraineeRegistered', '{"a":1}', '{"schemaVersion":1,"previousHash":null}')).toBe(
      createHash('sha256').update(text).digest('hex'),
    );
  });

  it('adds previousHash and hash at the end of the metadata, and reads them back from the text alone', () => {
    const first = chainEvent(null, STREAM, 0, 'TraineeRegistered', '{"a":1}', '{"schemaVersion":1}');
    expect(JSON.parse(first.metadata)).toEqual({ schemaVersion: 1, previousHash: null, hash: first.hash });
    expect(readChainKeys(first.metadata)).toEqual({
      hash: first.hash,
      previousHash: null,
      hashed: '{"schemaVersion":1,"previousHash":null}',
    });
    const second = chainEvent(first.hash, STREAM, 1, 'TraineeUpdated', '{}', '{}');
    expect(second.metadata).toBe(`{"previousHash":"${first.hash}","hash":"${second.hash}"}`);
    expect(readChainKeys(second.metadata)).toEqual({
      hash: second.hash,
      previousHash: first.hash,
      hashed: `{"previousHash":"${first.hash}"}`,
    });
  });

  it('finds no hash in metadata stored before the chain began, or whose end was altered', () => {
    expect(readChainKeys('{"schemaVersion":1}')).toEqual({ hash: null, previousHash: undefined, hashed: '{"schemaVersion":1}' });
    const { metadata } = chainEvent(null, STREAM, 0, 'T', '{}', '{"schemaVersion":1}');
    expect(readChainKeys(metadata.replace(/"hash":"(.)/, '"hash":"X')).hash).toBeNull();
    expect(readChainKeys(`${metadata.slice(0, -1)} }`).hash).toBeNull();
    expect(readChainKeys(metadata.replace('"hash"', '"hush"')).hash).toBeNull();
  });

  it('drops chain keys a caller passes (an event copied from an export), and keeps an object without them as it is', () => {
    const plain = { schemaVersion: 1 };
    expect(withoutChainKeys(plain)).toBe(plain);
    expect(withoutChainKeys({ schemaVersion: 1, previousHash: null, hash: 'ab' })).toEqual({ schemaVersion: 1 });
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
      id: 'e1',
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
