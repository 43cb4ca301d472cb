import { createHash, generateKeyPairSync } from 'node:crypto';
import { chainEvent, logPosition, type StoredEventText } from '@app/event-sourcing';
import { checkAgainstDigest } from './digest-check';
import { digestSignatureHolds, keyFingerprint, leafHash, MerkleRoot, signDigest, type HashedHead } from './digest';

const sha = (...parts: Buffer[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** RFC 6962 §2.1's Merkle tree hash, as the RFC writes it (recursive), to hold the incremental one to. */
function referenceRoot(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return leaves[0];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.of(1), referenceRoot(leaves.slice(0, k)), referenceRoot(leaves.slice(k)));
}

/** A stream of `n` chained events at positions `firstPosition`, `firstPosition + 1`, …. */
function stream(streamId: string, n: number, firstPosition: number): StoredEventText[] {
  const events: StoredEventText[] = [];
  let previous: string | null = null;
  for (let revision = 0; revision < n; revision++) {
    const data = JSON.stringify({ n: revision });
    const id = `${streamId}-e${revision}`;
    const chained = chainEvent(previous, { streamId, revision, id, type: 'A', data, metadata: '{"schemaVersion":1}' });
    events.push({ streamId, revision, id, type: 'A', data, metadata: chained.metadata, position: logPosition(firstPosition + revision) });
    previous = chained.hash;
  }
  return events;
}

const hashOf = (e: StoredEventText) => (JSON.parse(e.metadata) as { hash: string }).hash;

describe('the Merkle root over stream heads', () => {
  it('is RFC 6962 tree hash for every number of leaves from 0 to 17', () => {
    for (let n = 0; n <= 17; n++) {
      const heads: HashedHead[] = Array.from({ length: n }, (_, i) => ({ streamId: `s-${i}`, revision: i, hash: 'a'.repeat(64) }));
      const merkle = new MerkleRoot();
      for (const h of heads) merkle.add(leafHash(h));
      expect(merkle.root()).toBe(referenceRoot(heads.map(leafHash)).toString('hex'));
      expect(merkle.size).toBe(n);
    }
  });

  it('changes with any head: its stream, its revision or its hash', () => {
    const root = (heads: HashedHead[]) => {
      const m = new MerkleRoot();
      for (const h of heads) m.add(leafHash(h));
      return m.root();
    };
    const heads = [
      { streamId: 'a', revision: 1, hash: 'a'.repeat(64) },
      { streamId: 'b', revision: 2, hash: 'b'.repeat(64) },
    ];
    const base = root(heads);
    expect(root([heads[0], { ...heads[1], streamId: 'c' }])).not.toBe(base);
    expect(root([heads[0], { ...heads[1], revision: 3 }])).not.toBe(base);
    expect(root([heads[0], { ...heads[1], hash: 'c'.repeat(64) }])).not.toBe(base);
    expect(root([heads[1], heads[0]])).not.toBe(base);
  });
});

describe('signed digests', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const fields = { position: logPosition(120), time: '2026-11-26T12:00:00.000Z', streams: 3, root: 'd'.repeat(64) };

  it('hold for their own fields and key, and carry the public key whose fingerprint an auditor compares', () => {
    const digest = signDigest(fields, privateKey);
    expect(digest).toMatchObject({ format: 'trainee-records-audit-digest/1', ...fields, public_key: { kty: 'OKP', crv: 'Ed25519' } });
    expect(digestSignatureHolds(digest)).toBe(true);
    expect(keyFingerprint(digest.public_key)).toBe(keyFingerprint(publicKey));
  });

  it('do not hold once a field or the key is changed', () => {
    const digest = signDigest(fields, privateKey);
    expect(digestSignatureHolds({ ...digest, position: logPosition(121) })).toBe(false);
    expect(digestSignatureHolds({ ...digest, root: 'e'.repeat(64) })).toBe(false);
    expect(digestSignatureHolds({ ...digest, time: '2026-11-26T12:00:01.000Z' })).toBe(false);
    const other = signDigest(fields, generateKeyPairSync('ed25519').privateKey);
    expect(digestSignatureHolds({ ...digest, public_key: other.public_key })).toBe(false);
  });
});

describe('checkAgainstDigest', () => {
  const events = stream('trainee-1', 4, 10);
  const signed = { revision: 3, hash: hashOf(events[3]) };

  it('finds nothing in a stream as signed, or grown after the digest', () => {
    expect(checkAgainstDigest(events, signed, logPosition(13))).toEqual([]);
    const grown = stream('trainee-1', 6, 10);
    expect(checkAgainstDigest(grown, signed, logPosition(13))).toEqual([]);
  });

  it('names the revisions taken from the end of a stream as missing', () => {
    expect(checkAgainstDigest(events.slice(0, 2), signed, logPosition(13)).map((f) => [f.revision, f.kind])).toEqual([
      [2, 'missing'],
      [3, 'missing'],
    ]);
  });

  it('names a forged head, its hash computed afresh, as altered', () => {
    const forged = chainEvent(hashOf(events[2]), { ...events[3], data: '{"n":99}', metadata: '{"schemaVersion":1}' });
    const changed = [...events.slice(0, 3), { ...events[3], data: '{"n":99}', metadata: forged.metadata }];
    expect(checkAgainstDigest(changed, signed, logPosition(13)).map((f) => [f.revision, f.kind])).toEqual([[3, 'altered']]);
  });

  it('names an event put inside the signed part after the digest as inserted, by its position', () => {
    // A forged event at revision 1 (stored after the digest: a new position), the later ones renumbered and rehashed.
    const rewritten = stream('trainee-1', 5, 10).map((e, i) => ({ ...e, position: i === 1 ? logPosition(20) : e.position }));
    expect(checkAgainstDigest(rewritten, signed, logPosition(13)).map((f) => [f.revision, f.kind])).toEqual([[1, 'inserted']]);
  });

  it('names the events of a stream the digest does not hold, stored at or before its position, as inserted', () => {
    expect(checkAgainstDigest(stream('trainee-2', 2, 5), undefined, logPosition(13)).map((f) => [f.revision, f.kind])).toEqual([
      [0, 'inserted'],
      [1, 'inserted'],
    ]);
    expect(checkAgainstDigest(stream('trainee-2', 2, 14), undefined, logPosition(13))).toEqual([]);
  });
});
