import { renderTraineeAnswers, type TraineeAnswer } from '@app/trainees/answers';
import type { ApiVersion } from '@app/trainees/record';
import { changeOf } from '@app/changes';
import type { TraineeEvent } from '@app/trainees/decider';
import { type RecordedEvent, decodeBatch, foldBatch, type OnApplied } from '@app/event-sourcing';
import { traineeKeys, traineeProjection, type TraineeDocument } from '@app/trainees/read';
import { answerPatch } from './answer-patch';
import { changeRowOf, type ChangeRow } from './change-rows';

/** Named parameters of its upsert. */
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
  /** `TraineeDocument.link`: the hash of the event at `revision`; null when not known. */
  head_hash: string | null;
  doc: string;
}

/**
 * A trainee's answer in `version` as stored: `body` the whole answer when `base` is null, else an {@link answerPatch} over the answer
 * stored for `base`; `itemEnd` as {@link TraineeAnswer}'s, of the whole answer.
 */
export interface StoredAnswer extends TraineeAnswer {
  base: ApiVersion | null;
}

/** Its row, its answer bytes per version and its changes, as JSON already (a bulk build renders them in a worker, which posts strings). */
export interface PreparedTrainee {
  row: TraineeRow;
  /** Erased: its row and answers deleted, not written (`answers` empty); its changes kept. */
  erased: boolean;
  answers: StoredAnswer[];
  changes: ChangeRow[];
}

/**
 * The answers to store (docs/DESIGN.md "Answers stored as bytes"): the newest version's whole, each other as a patch over it where
 * one pays, else whole.
 */
export function storedAnswers(answers: readonly TraineeAnswer[]): StoredAnswer[] {
  const newest = answers[answers.length - 1];
  return answers.map((answer) => {
    if (answer === newest) return { ...answer, base: null };
    const patch = answerPatch(newest.body, answer.body);
    return patch ? { ...answer, body: patch, base: newest.version } : { ...answer, base: null };
  });
}

/**
 * Folds the trainee events (position order, or whole streams) into the documents `load` returns for the ids they change (absent: none
 * yet). No database of its own, so a bulk build runs it off the main thread (docs/DESIGN.md "Rebuilding by stream").
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
    list.push(changeRowOf(changeOf(event, recorded, before, after)));
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
    return { row, erased, answers: erased ? [] : storedAnswers(renderTraineeAnswers(after.trainee)), changes: changes.get(key) ?? [] };
  });
}
