import { Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { Answers, IdParam, NotFoundAnswer, Operation } from '../../openapi/operation.decorators';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import { ApiController } from '../../auth/api-controller.decorator';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { TraineeHistoryQuery, type TraineeHistoryAnswer } from './trainee-history.query';

/** The audit history of a trainee (docs/operations.md "Trainee history"; an extension beyond docs/spec/trainee-records-api.md). */
@ApiController('trainees/:trainee_id/history', 'History')
export class TraineeHistoryController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/trainees/{trainee_id}/history — an extension beyond the spec, for the
   * provider's own auditors; it replays the trainee's event stream.
   *
   * - Without `as_of`: 200 `{data: [TimelineEntry]}`, one entry per event of the trainee, oldest
   *   first: `position`, `revision`, `occurred_at`, `event_type`, `changed_fields` (canonical field
   *   names, the v2026.1 name where the versions differ, whatever the path's version), `changes`
   *   (their new values), `provider_ukprn`, `token_id` (the id of the token that made the request,
   *   never the token), `api_version` and `request_id`.
   * - With `as_of=<ISO 8601 instant>` (a date and a time with `Z` or an offset): 200
   *   `{data: Trainee}`, the trainee as it stood at that instant, in the path version's shape
   *   exactly as GET /trainees/{trainee_id} answers it (placements and degrees included).
   *
   * Errors: 404 `Trainee(s) not found` for an unknown trainee, another provider's (never 403,
   * docs/DESIGN.md property 6), or one that did not exist yet at `as_of`; 422
   * `{errors: [{error: "UnprocessableEntity", message: "as_of is not a valid ISO 8601 instant"}]}`
   * for a bad `as_of`; 401 without a valid token.
   */
  @Get()
  @Operation(
    'getTraineeHistory',
    "A trainee's audit history (an extension of this service)",
    'Replayed from its event stream: the timeline, oldest first, or with `as_of` the trainee as it stood then.',
  )
  @IdParam('trainee_id')
  @ApiQuery({
    name: 'as_of',
    required: false,
    description: 'An ISO 8601 instant (a date and a time with `Z` or an offset).',
    schema: { type: 'string', example: '2026-01-05T10:00:00Z' },
  })
  @Answers(200, 'The timeline, or the trainee at `as_of`.', 'TraineeHistoryResponse')
  @NotFoundAnswer("Trainee(s) not found: unknown, another provider's, or not yet registered at `as_of`.")
  @Answers(422, 'A bad `as_of`.', 'UnprocessableEntity')
  async history(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') traineeId: string,
    @Query('as_of') asOf: unknown,
  ): Promise<{ data: unknown }> {
    const answer = await this.queries.execute<TraineeHistoryQuery, TraineeHistoryAnswer>(new TraineeHistoryQuery(caller, traineeId, asOf));
    if (answer.kind === 'timeline') return { data: answer.entries };
    return { data: contract.output.serializeTrainee(answer.trainee, { nested: true }) };
  }
}
