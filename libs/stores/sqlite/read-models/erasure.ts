import type { Database } from '@app/sqlite';
import type { RecordedEvent } from '@app/event-sourcing';
import { ReadStoreNotForgotten } from '@app/personal-data';
import { courseEndedOn } from '@app/personal-data/erasure';
import type { TraineeEnding } from '@app/trainees/read';
import type { Trainee } from '@app/trainees/record';
import { writeAsSoonAsFree } from './shared-write-lock';
import type { TraineeTables } from './trainee-tables';
import { prepareTrainees } from './trainee-rows';
import { FORGET_WAL_WITHIN_MS, truncateWalWithin } from '../wal-truncation';

/** An erased trainee as `ReadModelStore.eraseTrainee` takes it: id, provider, whole stream read after its key was destroyed. */
export interface ErasedTrainee {
  traineeId: string;
  ukprn: string;
  stream: readonly RecordedEvent[];
}

/**
 * Forgets an erased trainee in every trainee store of the read store `db` (`ReadModelStore.eraseTrainee`;
 * docs/DESIGN.md "Personal data"), in one transaction: its row and answers deleted, its change feed
 * entries deleted and made again from its stream as a rebuild would make them. Then the WAL is
 * checkpointed and truncated (retried, without blocking the thread, while readers hold it, for up to
 * `forgetWalWithinMs`), so the pages that held the trainee are left neither in the file
 * (`secure_delete`, set on every connection) nor in the WAL. Throws when the stream does not end in
 * an erasure, and {@link ReadStoreNotForgotten} when the WAL could not be truncated in time (the
 * rows are deleted; the erasure run again truncates it).
 */
export async function eraseFromReadStore(
  db: Database.Database,
  tablesOf: (store: string) => TraineeTables,
  erased: ErasedTrainee,
  forgetWalWithinMs = FORGET_WAL_WITHIN_MS,
): Promise<void> {
  const prepared = prepareTrainees(erased.stream, () => new Map());
  if (prepared.length !== 1 || !prepared[0].erased) throw new Error(`the stream of trainee ${erased.traineeId} does not end in an erasure`);
  const stores = db
    .prepare<[], string>(`SELECT substr(name, 10) FROM sqlite_master WHERE type = 'table' AND name GLOB 'trainees_*'`)
    .pluck()
    .all();
  writeAsSoonAsFree(db, () => {
    for (const store of stores) {
      const tables = tablesOf(store);
      tables.eraseChangesOf(erased.ukprn, erased.traineeId);
      tables.write(prepared);
    }
  });
  if (!(await truncateWalWithin(db, forgetWalWithinMs))) {
    throw new ReadStoreNotForgotten(
      erased.traineeId,
      `a reader held the read store's WAL for ${forgetWalWithinMs} ms, so it could not be truncated`,
    );
  }
}

/** See `TraineeReadModel.listEndings`: the rows of `tables` on the trainee ids' unique index. */
export function endingsIn(db: Database.Database, tables: TraineeTables, afterId: string | null, limit: number): TraineeEnding[] {
  const rows = db
    .prepare<[string, number], { doc: string }>(`SELECT doc FROM ${tables.table} WHERE trainee_id > ? ORDER BY trainee_id LIMIT ?`)
    .all(afterId ?? '', limit);
  return rows.map(({ doc }) => {
    const t = JSON.parse(doc) as Trainee;
    return { trainee_id: t.trainee_id, ukprn: t.ukprn, state: t.state, ended_on: courseEndedOn(t) };
  });
}
