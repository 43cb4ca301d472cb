import type { Collection, Db } from 'mongodb';
import type { School } from '@app/trainees/record';
import type { SchoolDirectory } from '@app/schools';

interface SchoolDocument {
  _id: string;
  name: string;
  town: string | null;
  postcode: string | null;
}

/** The schools directory on MongoDB: collection `schools`, `_id` = URN, majority writes. */
export class MongoSchoolDirectory implements SchoolDirectory {
  private readonly schools: Collection<SchoolDocument>;

  constructor(db: Db) {
    this.schools = db.collection<SchoolDocument>('schools');
  }

  async findByUrns(urns: readonly string[]): Promise<Map<string, School>> {
    const docs = await this.schools.find({ _id: { $in: [...new Set(urns)] } }).toArray();
    return new Map(docs.map((d) => [d._id, { urn: d._id, name: d.name, town: d.town, postcode: d.postcode }]));
  }

  async upsertMany(schools: readonly School[]): Promise<void> {
    if (schools.length === 0) return;
    await this.schools.bulkWrite(
      schools.map((s) => ({
        replaceOne: { filter: { _id: s.urn }, replacement: { _id: s.urn, name: s.name, town: s.town, postcode: s.postcode }, upsert: true },
      })),
      { ordered: false },
    );
  }

  count(): Promise<number> {
    return this.schools.countDocuments();
  }

  close(): void {
    // The client belongs to the read model that created this directory, which closes it.
  }
}
