import { renderTraineeAnswers, type TraineeAnswer } from '@app/trainees/contract';
import { type StoredChange, changeOf } from '@app/changes';
import type { TraineeEvent } from '@app/trainees/decider';
import { type RecordedEvent, decodeBatch, foldBatch, type OnApplied } from '@app/event-sourcing';
import { traineeKeys, traineeProjection, type TraineeDocument } from '@app/trainees/read';

/** A trainee row as written to `trainees_<store>` (named parameters of its upsert). */
export interface TraineeRow {
  created_position: number;
  trainee_id: string;
  trainee_id_lower: string;
  ukprn: string;
  start_cycle: number;
  state: string;
  itt_start_date: string;
  has_trn: 0 | 1;
  updated_at: string;
  date_of_birth: string;
  training_route: string;
  last_name_key: string;
  revision: number;
  /** The link of the stream's head at `revision` (`TraineeDocument.link`: the hash of that event); null when not known. */
  head_hash: string | null;
  /** The trainee document as JSON. */
  doc: string;
}

/** A change feed entry as written to `trainee_changes_<store>`. */
export interface ChangeRow {
  position: number;
  ukprn: string;
  /** The {@link StoredChange} as JSON. */
  change: string;
}

/**
 * A changed trainee ready to store: its row, its answer bytes per API version
 * (`renderTraineeAnswers`), and the change feed's entry of each event applied (`changeOf`), as
 * JSON already (a bulk build renders it in its worker thread, and posts strings).
 */
export interface PreparedTrainee {
  row: TraineeRow;
  /** The trainee was erased: its row and answers are deleted, not written (`answers` is empty); its changes are kept. */
  erased: boolean;
  answers: TraineeAnswer[];
  changes: ChangeRow[];
}

/**
 * Folds the trainee events of `events` (position order, or whole streams) into the stored documents
 * that `load` returns for the keys they change (keyed as the events carry the id; absent: none yet)
 * with the trainee projection, and returns every changed trainee's row, answer bytes and changes. No
 * database of its own, so the bulk build runs it off the main thread (docs/DESIGN.md
 * "Rebuilding by stream").
 */
export function prepareTrainees(
  events: readonly RecordedEvent[],
  load: (keys: string[]) => ReadonlyMap<string, TraineeDocument>,
): PreparedTrainee[] {
  const batch = decodeBatch(traineeProjection, events);
  if (batch.keys.length === 0) return [];
  const changes = new Map<string, ChangeRow[]>();
  const onApplied: OnApplied<TraineeEvent, TraineeDocument> = ({ key, event, recorded }, before, after) => {
    // An erasure is absent from the feed (docs/DESIGN.md "Personal data").
    if (after.erased) return;
    let list = changes.get(key);
    if (!list) changes.set(key, (list = []));
    const change: StoredChange = changeOf(event, recorded, before, after);
    list.push({ position: change.position, ukprn: change.ukprn, change: JSON.stringify(change) });
  };
  return foldBatch(traineeProjection, batch, load(batch.keys), onApplied).map(({ key, after }) => {
    const keys = traineeKeys(after);
    const row = {
      ...keys,
      has_trn: keys.has_trn ? (1 as const) : (0 as const),
      revision: after.revision,
      head_hash: after.link ?? null,
      doc: JSON.stringify(after.trainee),
    };
    const erased = after.erased === true;
    return { row, erased, answers: erased ? [] : renderTraineeAnswers(after.trainee), changes: changes.get(key) ?? [] };
  });
}
