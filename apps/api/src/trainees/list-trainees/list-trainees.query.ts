import type { ApiVersion } from '@app/trainees/record';
import type { TraineeAnswerPage, TraineeListQuery } from '@app/trainees/read';
import { traineeQueryHandler } from '../trainee-handlers';

/** One page of the caller's trainees (docs/reference/API-FACTS.md §14), as list items of `version`. */
export class ListTraineesQuery {
  constructor(
    readonly query: TraineeListQuery,
    readonly version: ApiVersion,
  ) {}
}

/**
 * Reads one page from the trainee read model's list index (the query names the caller's provider):
 * the stored item bytes of the version (docs/DESIGN.md "Answers stored as bytes").
 */
export const ListTraineesHandler = traineeQueryHandler(ListTraineesQuery, (trainees, { query, version }): Promise<TraineeAnswerPage> =>
  trainees.listTraineeAnswers(query, version),
);
