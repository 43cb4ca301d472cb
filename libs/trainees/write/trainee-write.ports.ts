import type { School, Trainee } from '@app/trainees/record';
import type { TraineeSnapshot } from '@app/trainees/decider';
import type { EventStore, ProjectionWaiter, KeyedLock } from '@app/event-sourcing';

/**
 * What the write path reads of the trainee read model (the read-model adapters of
 * libs/stores/sqlite and libs/stores/mongodb implement it): the stored trainee by id, matched
 * case-insensitively (docs/reference/API-FACTS.md §1.10), and the same as a snapshot a command
 * starts from; the snapshot is null when the served projection was built by another version of the
 * code (docs/DESIGN.md "Bounded cost per trainee").
 */
export interface TraineeSnapshots {
  getTrainee(traineeId: string): Promise<Trainee | null>;
  getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null>;
}

/** The provider's trainees that could duplicate a new one (docs/spec/trainee-records-api.md "Duplicate rules"). */
export interface DuplicateCandidates {
  findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]>;
}

/** The schools directory as placements need it: the known schools of these URNs. */
export interface SchoolLookup {
  findByUrns(urns: readonly string[]): Promise<Map<string, School>>;
}

/**
 * Everything a trainee command needs, as one injectable value: the event store, the read model's
 * snapshots, the projection waiter, one lock per trainee in this process, the clock (UTC) and the
 * resource id source (ids of new trainees, placements and degrees).
 */
export interface TraineeWritePorts {
  eventStore: EventStore;
  trainees: TraineeSnapshots & DuplicateCandidates;
  schools: SchoolLookup;
  projection: ProjectionWaiter;
  locks: KeyedLock;
  clock: () => Date;
  newId: () => string;
}

/** Injection token of {@link TraineeWritePorts}. */
export const TRAINEE_WRITE_PORTS = Symbol('TRAINEE_WRITE_PORTS');
