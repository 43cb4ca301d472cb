import { Binary, MongoServerError, type Collection, type Db } from 'mongodb';
import {
  proofOf,
  subtreesOfPath,
  type DigestTree,
  type DigestTreeStore,
  type DigestWithProof,
  type SignedDigest,
  type HashedHead,
} from '@app/audit';
import { DUPLICATE_KEY, retryDuplicateKey, retryMultiWrite } from './mongo-connection';

interface DigestDocument {
  _id: 'latest';
  generation: number;
  digest: SignedDigest;
}

/** The last generation claimed by a keep (beside `latest`, in `audit_digest`). */
interface GenerationsDocument {
  _id: 'generations';
  last: number;
}

interface HeadDocument {
  g: number;
  stream_id: string;
  leaf_index: number;
  revision: number;
  hash: string;
}

interface NodeDocument {
  g: number;
  level: number;
  idx: number;
  hash: Binary;
}

/** Documents per insertMany while a tree is kept. */
const INSERT_BATCH = 5000;

/**
 * The latest signed digest's tree on MongoDB (`DigestTreeStore`; docs/DESIGN.md "Inclusion
 * proofs"), in the read store's database but outside the versioned projection collections:
 * `audit_digest` (one document: the digest and its generation), `audit_digest_heads` and
 * `audit_digest_nodes` (each row tagged with its generation `g`). A keep claims a generation of
 * its own (`audit_digest` document `generations`, incremented atomically), writes its rows, then
 * points `latest` at it unless a later generation is pointed at already, then deletes the older
 * generations' rows (or, when it lost, its own): two keeps at once, in two processes, never delete
 * each other's rows, and the one that claimed last is kept whole. A reader that read the pointer
 * reads one generation; one that meets a generation deleted under it reads again.
 */
export class MongoDigestTreeStore implements DigestTreeStore {
  private readonly digests: Collection<DigestDocument>;
  private readonly generations: Collection<GenerationsDocument>;
  private readonly headRows: Collection<HeadDocument>;
  private readonly nodes: Collection<NodeDocument>;

  constructor(db: Db) {
    this.digests = db.collection<DigestDocument>('audit_digest');
    this.generations = db.collection<GenerationsDocument>('audit_digest');
    this.headRows = db.collection<HeadDocument>('audit_digest_heads');
    this.nodes = db.collection<NodeDocument>('audit_digest_nodes');
  }

  /** Creates the indexes the proofs and `heads` read by (idempotent): (g, stream_id), (g, leaf_index), (g, level, idx). */
  async ensureIndexes(): Promise<void> {
    await this.headRows.createIndex({ g: 1, stream_id: 1 }, { unique: true });
    await this.headRows.createIndex({ g: 1, leaf_index: 1 });
    await this.nodes.createIndex({ g: 1, level: 1, idx: 1 }, { unique: true });
  }

  /** See `DigestTreeStore.keep`; concurrent keeps as this class says. */
  async keep(digest: SignedDigest, tree: DigestTree): Promise<void> {
    const g = await this.claimGeneration();
    const heads = tree.heads.map((h, i) => ({ g, stream_id: h.streamId, leaf_index: i, revision: h.revision, hash: h.hash }));
    for (let i = 0; i < heads.length; i += INSERT_BATCH) await this.headRows.insertMany(heads.slice(i, i + INSERT_BATCH));
    const nodes = tree.nodes.map((n) => ({ g, level: n.level, idx: n.index, hash: new Binary(n.hash) }));
    for (let i = 0; i < nodes.length; i += INSERT_BATCH) await this.nodes.insertMany(nodes.slice(i, i + INSERT_BATCH));
    const stale = (await this.point(g, digest)) ? { g: { $lt: g } } : { g };
    await retryMultiWrite(() => this.headRows.deleteMany(stale));
    await retryMultiWrite(() => this.nodes.deleteMany(stale));
  }

  /**
   * A generation no other keep has: one more than the last claimed and than the one pointed at (a
   * store kept before claims were counted).
   */
  private async claimGeneration(): Promise<number> {
    const pointed = (await this.digests.findOne({ _id: 'latest' }, { projection: { generation: 1 } }))?.generation ?? 0;
    const claimed = await retryDuplicateKey(() =>
      this.generations.findOneAndUpdate(
        { _id: 'generations' },
        [{ $set: { last: { $add: [{ $max: [{ $ifNull: ['$last', 0] }, { $literal: pointed }] }, 1] } } }],
        { upsert: true, returnDocument: 'after' },
      ),
    );
    if (!claimed) throw new Error('audit_digest: no generation was claimed');
    return claimed.last;
  }

  /**
   * Points `latest` at generation `g`; false when a later generation is pointed at already (the
   * upsert then meets `latest` and fails with E11000).
   */
  private async point(g: number, digest: SignedDigest): Promise<boolean> {
    try {
      await this.digests.updateOne({ _id: 'latest', generation: { $lt: g } }, { $set: { generation: g, digest } }, { upsert: true });
      return true;
    } catch (err) {
      if (err instanceof MongoServerError && err.code === DUPLICATE_KEY) return false;
      throw err;
    }
  }

  async latest(streamId?: string): Promise<DigestWithProof | null> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.read(streamId);
      if (answer !== 'moved' || attempt >= 2) return answer === 'moved' ? null : answer;
    }
  }

  /** One read of the pointed generation; `moved` when its rows were dropped under it (a newer digest was kept). */
  private async read(streamId?: string): Promise<DigestWithProof | null | 'moved'> {
    const latest = await this.digests.findOne({ _id: 'latest' }, { readConcern: { level: 'majority' } });
    if (!latest) return null;
    const { digest, generation: g } = latest;
    if (streamId === undefined) return { digest, inclusion: null };
    const head = await this.headRows.findOne({ g, stream_id: streamId });
    if (!head) return (await this.digests.findOne({ _id: 'latest', generation: g })) ? { digest, inclusion: null } : 'moved';
    const wanted = subtreesOfPath(head.leaf_index, digest.streams);
    const found = new Map<string, Buffer>();
    if (wanted.length > 0) {
      const docs = await this.nodes.find({ g, $or: wanted.map(([level, idx]) => ({ level, idx })) }).toArray();
      for (const d of docs) found.set(`${d.level}/${d.idx}`, Buffer.from(d.hash.buffer));
      if (found.size < new Set(wanted.map(([l, i]) => `${l}/${i}`)).size) return 'moved';
    }
    const kept = { streamId: head.stream_id, index: head.leaf_index, revision: head.revision, hash: head.hash };
    return { digest, inclusion: proofOf(digest, kept, (level, index) => found.get(`${level}/${index}`)!) };
  }

  async heads(): Promise<HashedHead[]> {
    const latest = await this.digests.findOne({ _id: 'latest' }, { readConcern: { level: 'majority' } });
    if (!latest) return [];
    const docs = await this.headRows.find({ g: latest.generation }).sort({ leaf_index: 1 }).toArray();
    return docs.map((d) => ({ streamId: d.stream_id, revision: d.revision, hash: d.hash }));
  }

  async close(): Promise<void> {
    // The database's client belongs to the read store, which closes it.
  }
}
