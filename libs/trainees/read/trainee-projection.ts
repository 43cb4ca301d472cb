import { decodeTraineeEvent, evolve, lastNameKey, startCycle, type TraineeEvent } from '@app/trainees/decider';
import { type Trainee, type TraineeStatus } from '@app/trainees/record';
import { type ChainLink, type RecordedEvent, project, streamHeadOf, type Projection } from '@app/event-sourcing';

/** A `trainees` projection document: the trainee as `evolve` leaves it, and what the projection adds (docs/DESIGN.md "Read models"). */
export interface TraineeDocument {
  trainee: Trainee;
  /** Stream revision (in `trainee-<trainee_id>`) of the last event applied. */
  revision: number;
  /** What the next append chains to (opaque), handed back with the revision by a command starting here; null or absent when unknown. */
  link?: ChainLink | null;
  /** Global position of the event that registered the trainee: the list's tie-break (newest-created first). */
  created_position: number;
  /** Erased: the stores delete its document and answers, and keep no personal value in its feed entries. */
  erased?: true;
}

/** The columns (SQLite) or fields (MongoDB) the trainee queries filter, sort and look up by. */
export interface TraineeKeys {
  trainee_id: string;
  trainee_id_lower: string;
  ukprn: string;
  /** Start year of the trainee's academic cycle (the list's `academic_cycle`). */
  start_cycle: number;
  state: TraineeStatus;
  itt_start_date: string;
  has_trn: boolean;
  updated_at: string;
  date_of_birth: string;
  training_route: string;
  /** The last name as the duplicate rule compares it (`lastNameKey`). */
  last_name_key: string;
  created_position: number;
}

/** One document per trainee, keyed by the id its events carry; `TraineeErased` marks it `erased` for the store to delete. */
export const traineeProjection: Projection<TraineeEvent, TraineeDocument> = {
  decode: (recorded) => decodeTraineeEvent(recorded),
  keyOf: (event) => event.data.trainee_id,
  evolve: (doc, event, recorded) => {
    if (doc?.erased) return doc;
    const state = evolve(doc ? { exists: true, trainee: doc.trainee } : { exists: false }, event);
    const { revision, link } = streamHeadOf(recorded);
    if (!state.exists) return doc && state.erased ? { ...doc, revision, link, erased: true } : doc;
    return {
      trainee: state.trainee,
      revision,
      link,
      created_position: doc?.created_position ?? recorded.position,
    };
  },
};

/** Unchanged for an event at or below its revision, of another type, or before the registration (docs/DESIGN.md "Read models"). */
export function projectTrainee(doc: TraineeDocument | null, recorded: RecordedEvent): TraineeDocument | null {
  return project(traineeProjection, doc, recorded);
}

/** The lookup key of a trainee id: ids match case-insensitively (docs/reference/API-FACTS.md §1.10). */
export function traineeIdKey(traineeId: string): string {
  return traineeId.toLowerCase();
}

export function traineeKeys(doc: TraineeDocument): TraineeKeys {
  const t = doc.trainee;
  return {
    trainee_id: t.trainee_id,
    trainee_id_lower: traineeIdKey(t.trainee_id),
    ukprn: t.ukprn,
    start_cycle: startCycle(t.details),
    state: t.state,
    itt_start_date: t.details.itt_start_date,
    has_trn: Boolean(t.trn),
    updated_at: t.updated_at,
    date_of_birth: t.details.date_of_birth,
    training_route: t.details.training_route,
    last_name_key: lastNameKey(t.details.last_name),
    created_position: doc.created_position,
  };
}

/** The keys a duplicate-candidate query matches (rule 1 of docs/spec/trainee-records-api.md "Duplicate rules"). */
export function duplicateKeys(
  ukprn: string,
  dateOfBirth: string,
  trainingRoute: string,
  lastName: string,
): Pick<TraineeKeys, 'ukprn' | 'date_of_birth' | 'training_route' | 'last_name_key'> {
  return { ukprn, date_of_birth: dateOfBirth, training_route: trainingRoute, last_name_key: lastNameKey(lastName) };
}
