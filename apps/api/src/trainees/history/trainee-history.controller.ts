import { Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { AS_OF_MAX_LENGTH } from '../as-of';
import { Answers, IdParam, NotFoundAnswer, Operation } from '../../openapi/operation.decorators';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import { ApiController } from '../../openapi/api-controller.decorator';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { AFTER_CHARS } from '../../query-params/cursor-page';
import { HISTORY_LIMIT_DEFAULT, HISTORY_LIMIT_MAX } from './trainee-history.params';
import { TraineeHistoryQuery, type TimelinePageAnswer, type TraineeHistoryAnswer } from './trainee-history.query';

/** An extension beyond the spec, for the provider's auditors (docs/operations.md "Trainee history"). */
@ApiController('trainees/:trainee_id/history', 'History')
export class TraineeHistoryController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/trainees/{trainee_id}/history[?after=&limit=][?as_of=] (docs/operations.md "Trainee history"). Without `as_of`:
   * 200 `{data: [TimelineEntry], next_cursor, has_more}`, a page oldest first, canonical field names whatever the version, no global
   * position. With `as_of` (an ISO 8601 instant): 200 `{data: Trainee}` as GET /trainees/{trainee_id} answers it then. Errors: 404
   * `Trainee(s) not found` (unknown, another provider's, or not yet existing at `as_of`); 422 for a bad `as_of`, and in the list's shape
   * for a bad `after` or `limit`; 401.
   */
  @Get()
  @Operation(
    'getTraineeHistory',
    "A trainee's audit history (an extension of this service)",
    'Read from its event stream: a page of the timeline, oldest first (send `next_cursor` back as `after` to read on), or with `as_of` the trainee as it stood then.',
  )
  @IdParam('trainee_id')
  @ApiQuery({
    name: 'as_of',
    required: false,
    description: 'An ISO 8601 instant (a date and a time with `Z` or an offset).',
    schema: { type: 'string', maxLength: AS_OF_MAX_LENGTH, example: '2026-01-05T10:00:00Z' },
  })
  @ApiQuery({
    name: 'after',
    required: false,
    description:
      "A `next_cursor` this trainee's history answered to this provider; omitted: from the first event. Opaque: anything else, a cursor of another trainee or provider or of the change feed included, answers 422.",
    schema: { type: 'string', minLength: AFTER_CHARS, maxLength: AFTER_CHARS, pattern: '^[A-Za-z0-9_-]+$' },
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `Timeline entries per page, default ${HISTORY_LIMIT_DEFAULT}, at most ${HISTORY_LIMIT_MAX} (more answers 422).`,
    schema: { type: 'integer', minimum: 1, maximum: HISTORY_LIMIT_MAX, default: HISTORY_LIMIT_DEFAULT },
  })
  @Answers(200, 'A page of the timeline, or the trainee at `as_of`.', 'TraineeHistoryResponse')
  @NotFoundAnswer("Trainee(s) not found: unknown, another provider's, or not yet registered at `as_of`.")
  @Answers(422, 'A bad `as_of` (UnprocessableEntity), or a bad `after` or `limit` (keyed by parameter).', {
    oneOf: [{ $ref: '#/components/schemas/UnprocessableEntity' }, { $ref: '#/components/schemas/ListQueryErrors' }],
  })
  async history(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Param('trainee_id') traineeId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<TimelinePageAnswer | { data: unknown }> {
    const answer = await this.queries.execute<TraineeHistoryQuery, TraineeHistoryAnswer>(
      new TraineeHistoryQuery(caller, traineeId, query ?? {}),
    );
    if (answer.kind === 'timeline') return answer.page;
    return { data: contract.output.serializeTrainee(answer.trainee, { nested: true }) };
  }
}
