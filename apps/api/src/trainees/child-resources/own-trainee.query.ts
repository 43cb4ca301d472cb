import { findOwnTrainee } from '@app/trainees/read';
import type { Trainee } from '@app/trainees/record';
import type { Caller } from '@app/trainees/write';
import { traineeQueryHandler } from '../trainee-handlers';

/** The caller's trainee, by id as sent (case-insensitive, docs/reference/API-FACTS.md §1.10), as the read model holds it. */
export class OwnTraineeQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
  ) {}
}

/** Reads the trainee from the trainee read model; NotFound for an unknown trainee or another provider's (docs/DESIGN.md property 6). */
export const OwnTraineeHandler = traineeQueryHandler(OwnTraineeQuery, (trainees, { caller, traineeId }): Promise<Trainee> =>
  findOwnTrainee(trainees, caller.ukprn, traineeId),
);
