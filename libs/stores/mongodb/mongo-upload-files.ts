import { Binary, type Collection, type Db } from 'mongodb';
import type { UploadFiles } from '@app/uploads/write';
import { retryMultiWrite, untilDone } from './mongo-connection';

interface PartDocument {
  /** `<upload_id>/<part>`. */
  _id: string;
  upload_id: string;
  part: string;
  bytes: Binary;
  stored_at: Date;
}

/** Collection of the uploads' parts, outside the versioned projection collections. */
export const UPLOAD_PARTS_COLLECTION = 'upload_parts';

/**
 * The uploads' parts on MongoDB (`UploadFiles`; docs/DESIGN.md "Uploads"): collection
 * `upload_parts` in the read store's database, one document per part (`_id` `<upload_id>/<part>`,
 * the sealed bytes as binary: at most about 1 MiB, well under MongoDB's 16 MiB document limit), an
 * index on `upload_id`; every write with the majority, journaled write concern. A delete removes the
 * documents; the storage engine may keep their bytes in its files until it reuses or compacts them
 * (the bytes are sealed, and the upload's key is destroyed with the purge), as for the data keys.
 */
export class MongoUploadFiles implements UploadFiles {
  private readonly parts_: Collection<PartDocument>;
  private readonly indexed: () => Promise<void>;

  constructor(db: Db) {
    this.parts_ = db.collection<PartDocument>(UPLOAD_PARTS_COLLECTION);
    this.indexed = untilDone(() => this.parts_.createIndex({ upload_id: 1, part: 1 }, { name: 'by_upload' }));
  }

  async put(uploadId: string, part: string, bytes: Uint8Array): Promise<void> {
    await this.indexed();
    const doc: PartDocument = {
      _id: `${uploadId}/${part}`,
      upload_id: uploadId,
      part,
      bytes: new Binary(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
      stored_at: new Date(),
    };
    await this.parts_.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  async get(uploadId: string, part: string): Promise<Uint8Array | null> {
    const doc = await this.parts_.findOne({ _id: `${uploadId}/${part}` });
    return doc ? Buffer.from(doc.bytes.buffer) : null;
  }

  async parts(uploadId: string): Promise<string[]> {
    const docs = await this.parts_.find({ upload_id: uploadId }, { projection: { part: 1 } }).toArray();
    return docs.map((d) => d.part).sort();
  }

  /** Sent again after a step-down (`retryMultiWrite`); the count is then the last attempt's. */
  async delete(uploadId: string): Promise<number> {
    return (await retryMultiWrite(() => this.parts_.deleteMany({ upload_id: uploadId }))).deletedCount;
  }

  /** The client is the read store's, closed with it. */
  async close(): Promise<void> {}
}
