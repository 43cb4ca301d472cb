import type { Caller } from '@app/trainees/write';
import type { ApiVersion } from '@app/trainees/record';
import { findOwnTraineeAnswer } from '@app/trainees/read';
import { traineeQueryHandler } from '../trainee-handlers';

/** One trainee of the caller's provider, by id (case-insensitive, docs/reference/API-FACTS.md §1.10), as answer bytes of `version`. */
export class GetTraineeQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
    readonly version: ApiVersion,
  ) {}
}

/**
 * Reads the trainee's stored answer bytes (docs/DESIGN.md "Answers stored as bytes"): the UTF-8 JSON
 * of the trainee with placements and degrees. Another provider's trainee is NotFound (docs/DESIGN.md
 * property 6).
 */
export const GetTraineeHandler = traineeQueryHandler(GetTraineeQuery, (trainees, { caller, traineeId, version }): Promise<Buffer> =>
  findOwnTraineeAnswer(trainees, caller.ukprn, traineeId, version),
);
