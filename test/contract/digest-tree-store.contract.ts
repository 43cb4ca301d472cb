/**
 * The contract every digest tree store passes (libs/audit/digest-tree.ts): it
 * keeps the latest signed digest and its tree, proves any head it covers against the digest's
 * root, answers no proof for a stream it does not cover, and a new digest replaces the old whole,
 * as another connection to the same storage sees too.
 */
import { generateKeyPairSync } from 'node:crypto';
import { digestTree, leafHash, rootFromPath, signDigest, type DigestTreeStore, type SignedDigest, type HashedHead } from '@app/audit';
import { logPosition } from '@app/event-sourcing';

/** A store on fresh storage; `reopen` opens another one on the same storage (as another process would). */
export interface DigestTreeStoreFixture {
  store: DigestTreeStore;
  reopen(): Promise<DigestTreeStore>;
  cleanup(): Promise<void>;
}

const { privateKey } = generateKeyPairSync('ed25519');

function headsOf(n: number, revision: number): HashedHead[] {
  return Array.from({ length: n }, (_, i) => ({
    streamId: `trainee-${String(i).padStart(5, '0')}`,
    revision,
    hash: (i * 7 + revision).toString(16).padStart(64, '0'),
  }));
}

function signed(heads: HashedHead[], position: number) {
  const tree = digestTree(heads);
  const digest = signDigest(
    { position: logPosition(position), time: '2026-11-26T10:00:00.000Z', streams: heads.length, root: tree.root },
    privateKey,
  );
  return { digest, tree };
}

/** True when `proof` takes `head`'s leaf to `digest`'s root. */
function proves(digest: SignedDigest, head: HashedHead, proof: { leaf_index: number; audit_path: string[] }): boolean {
  const path = proof.audit_path.map((h) => Buffer.from(h, 'hex'));
  return rootFromPath(proof.leaf_index, digest.streams, leafHash(head), path)?.toString('hex') === digest.root;
}

export function describeDigestTreeStoreContract(name: string, open: () => Promise<DigestTreeStoreFixture>): void {
  describe(`Digest tree store contract: ${name}`, () => {
    let fx: DigestTreeStoreFixture;
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(() => fx.cleanup());

    it('keeps nothing at first', async () => {
      expect(await fx.store.latest()).toBeNull();
      expect(await fx.store.latest('trainee-00001')).toBeNull();
      expect(await fx.store.heads()).toEqual([]);
    });

    it('proves every head of the kept digest against its root, and none of a stream it does not hold', async () => {
      const heads = headsOf(1234, 3);
      const { digest, tree } = signed(heads, 5000);
      await fx.store.keep(digest, tree);
      expect((await fx.store.latest())?.digest).toEqual(digest);
      for (const i of [0, 1, 617, 1023, 1024, 1233]) {
        const answer = await fx.store.latest(heads[i].streamId);
        expect(answer?.inclusion).toMatchObject({ stream_id: heads[i].streamId, revision: 3, hash: heads[i].hash, leaf_index: i });
        expect(proves(digest, heads[i], answer!.inclusion!)).toBe(true);
        expect(proves(digest, { ...heads[i], revision: 4 }, answer!.inclusion!)).toBe(false);
      }
      expect(await fx.store.latest('trainee-99999')).toEqual({ digest, inclusion: null });
      expect(await fx.store.heads()).toEqual(heads);
    });

    it('replaces the kept digest whole with the next, as another connection sees', async () => {
      const first = signed(headsOf(10, 1), 100);
      await fx.store.keep(first.digest, first.tree);
      const heads = headsOf(7, 2);
      const next = signed(heads, 200);
      await fx.store.keep(next.digest, next.tree);
      const other = await fx.reopen();
      const answer = await other.latest(heads[6].streamId);
      expect(answer?.digest).toEqual(next.digest);
      expect(proves(next.digest, heads[6], answer!.inclusion!)).toBe(true);
      expect((await other.latest('trainee-00008'))?.inclusion).toBeNull();
      expect(await other.heads()).toEqual(heads);
    });

    it('of two digests kept at once on two connections, keeps one whole', async () => {
      const other = await fx.reopen();
      const [headsA, headsB] = [headsOf(300, 1), headsOf(200, 2)];
      const [a, b] = [signed(headsA, 100), signed(headsB, 200)];
      await Promise.all([fx.store.keep(a.digest, a.tree), other.keep(b.digest, b.tree)]);
      const kept = (await fx.store.latest())!.digest;
      expect([a.digest, b.digest]).toContainEqual(kept);
      const heads = kept.root === a.digest.root ? headsA : headsB;
      expect(await fx.store.heads()).toEqual(heads);
      for (const i of [0, 101, 199]) expect(proves(kept, heads[i], (await other.latest(heads[i].streamId))!.inclusion!)).toBe(true);
    });
  });
}
