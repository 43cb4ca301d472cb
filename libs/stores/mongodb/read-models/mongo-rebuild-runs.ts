import type { Collection, Db } from 'mongodb';
import type { RebuildRun, RebuildRunStore } from '@app/runtime/rebuild';

type RunDocument = Omit<RebuildRun, 'projection'> & { _id: RebuildRun['projection'] };

/** Rebuild runs in the `projection_rebuild_runs` collection (`_id` the projection's name). */
export class MongoRebuildRuns implements RebuildRunStore {
  private readonly runs: Collection<RunDocument>;

  constructor(db: Db) {
    this.runs = db.collection<RunDocument>('projection_rebuild_runs');
  }

  async record(run: RebuildRun): Promise<void> {
    const { projection, ...rest } = run;
    await this.runs.replaceOne({ _id: projection }, rest, { upsert: true });
  }

  async all(): Promise<RebuildRun[]> {
    const docs = await this.runs.find({}).toArray();
    return docs.map(({ _id, ...rest }) => ({ projection: _id, ...rest }));
  }
}
