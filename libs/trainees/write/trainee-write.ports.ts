import type { School, Trainee } from '@app/trainees/record';
import type { TraineeSnapshot } from '@app/trainees/decider';
import type { EventStore, ProjectionWaiter, KeyedLock } from '@app/event-sourcing';
import type { RegistrationReservations } from './registration-reservations.port';

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
 * snapshots, the projection waiter, one lock per trainee in this process, the clock (UTC), the
 * resource id source (ids of new trainees, placements and degrees), and the duplicate rule's
 * reservations with their names (`keyedGuardNames`).
 */
export interface TraineeWritePorts {
  eventStore: EventStore;
  trainees: TraineeSnapshots & DuplicateCandidates;
  schools: SchoolLookup;
  projection: ProjectionWaiter;
  locks: KeyedLock;
  clock: () => Date;
  newId: () => string;
  /**
   * The id of a new trainee: with personal data sealed, one whose data key is already stored
   * (`DataKeys.newTraineeId`, docs/DESIGN.md "Personal data"), so the create's append waits on no
   * write to the key store.
   */
  newTraineeId: () => Promise<string>;
  /** Where creates that could duplicate each other meet (docs/DESIGN.md property 3): the key store's reservations. */
  reservations: RegistrationReservations;
  /** The reservation name of a duplicate-rule key (`duplicateGuardKey`): a keyed hash of it (`keyedGuardNames`). */
  guardNameOf: (guardKey: string) => string;
  /** Told after each claim written, so its release is armed (`SettledClaimRelease.soon`); none in tests that do not release. */
  claimWritten?: () => void;
}

/** Injection token of {@link TraineeWritePorts}. */
export const TRAINEE_WRITE_PORTS = Symbol('TRAINEE_WRITE_PORTS');
