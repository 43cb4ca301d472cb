import { Binary, type Collection, type Db } from 'mongodb';
import {
  proofOf,
  subtreesOfPath,
  type DigestTree,
  type DigestTreeStore,
  type DigestWithProof,
  type SignedDigest,
  type HashedHead,
} from '@app/audit';
import { WRITE_CONCERN } from './mongo-connection';

interface DigestDocument {
  _id: 'latest';
  generation: number;
  digest: SignedDigest;
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
 * `audit_digest_nodes` (each row tagged with its generation `g`). A digest writes its generation's
 * rows, then points `audit_digest` at it, then drops the others: a reader that read the pointer
 * reads one generation; one that meets a generation dropped under it reads again.
 */
export class MongoDigestTreeStore implements DigestTreeStore {
  private readonly digests: Collection<DigestDocument>;
  private readonly headRows: Collection<HeadDocument>;
  private readonly nodes: Collection<NodeDocument>;

  constructor(db: Db) {
    this.digests = db.collection<DigestDocument>('audit_digest');
    this.headRows = db.collection<HeadDocument>('audit_digest_heads');
    this.nodes = db.collection<NodeDocument>('audit_digest_nodes');
  }

  /** Creates the indexes the proofs read by (idempotent). */
  async ensureIndexes(): Promise<void> {
    await this.headRows.createIndex({ g: 1, stream_id: 1 }, { unique: true });
    await this.nodes.createIndex({ g: 1, level: 1, idx: 1 }, { unique: true });
  }

  async keep(digest: SignedDigest, tree: DigestTree): Promise<void> {
    const current = await this.digests.findOne({ _id: 'latest' });
    const g = (current?.generation ?? 0) + 1;
    await this.headRows.deleteMany({ g }, { writeConcern: WRITE_CONCERN });
    await this.nodes.deleteMany({ g }, { writeConcern: WRITE_CONCERN });
    const heads = tree.heads.map((h, i) => ({ g, stream_id: h.streamId, leaf_index: i, revision: h.revision, hash: h.hash }));
    for (let i = 0; i < heads.length; i += INSERT_BATCH)
      await this.headRows.insertMany(heads.slice(i, i + INSERT_BATCH), { writeConcern: WRITE_CONCERN });
    const nodes = tree.nodes.map((n) => ({ g, level: n.level, idx: n.index, hash: new Binary(n.hash) }));
    for (let i = 0; i < nodes.length; i += INSERT_BATCH)
      await this.nodes.insertMany(nodes.slice(i, i + INSERT_BATCH), { writeConcern: WRITE_CONCERN });
    await this.digests.replaceOne({ _id: 'latest' }, { generation: g, digest }, { upsert: true, writeConcern: WRITE_CONCERN });
    await this.headRows.deleteMany({ g: { $ne: g } }, { writeConcern: WRITE_CONCERN });
    await this.nodes.deleteMany({ g: { $ne: g } }, { writeConcern: WRITE_CONCERN });
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
