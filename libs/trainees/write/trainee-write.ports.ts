import type { School, Trainee } from '@app/trainees/record';
import type { TraineeSnapshot } from '@app/trainees/decider';
import type { EventStore, ProjectionWaiter, KeyedLock } from '@app/event-sourcing';
import type { RegistrationReservations } from './registration-reservations.port';

/**
 * The read model as the write path reads it: a trainee by id, matched case-insensitively (docs/reference/API-FACTS.md §1.10), and
 * as a snapshot, null when the projection was built by another code version (docs/DESIGN.md "Bounded cost per trainee").
 */
export interface TraineeSnapshots {
  getTrainee(traineeId: string): Promise<Trainee | null>;
  getTraineeSnapshot(traineeId: string): Promise<TraineeSnapshot | null>;
}

/** The provider's trainees that could duplicate a new one (docs/spec/trainee-records-api.md "Duplicate rules"). */
export interface DuplicateCandidates {
  findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]>;
}

export interface SchoolLookup {
  findByUrns(urns: readonly string[]): Promise<Map<string, School>>;
}

/** Everything a trainee command needs, as one injectable value. `newId`: ids of new placements and degrees. */
export interface TraineeWritePorts {
  eventStore: EventStore;
  trainees: TraineeSnapshots & DuplicateCandidates;
  schools: SchoolLookup;
  projection: ProjectionWaiter;
  locks: KeyedLock;
  clock: () => Date;
  newId: () => string;
  /** With sealing, an id whose data key is already stored (`DataKeys.newTraineeId`), so the append waits on no key write. */
  newTraineeId: () => Promise<string>;
  reservations: RegistrationReservations;
  /** A duplicate key's reservation name (`keyedGuardNames`). */
  guardNameOf: (guardKey: string) => string;
  /** Told after each claim written, so its release is armed (`SettledClaimRelease.soon`); none in tests that do not release. */
  claimWritten?: () => void;
}

export const TRAINEE_WRITE_PORTS = Symbol('TRAINEE_WRITE_PORTS');
