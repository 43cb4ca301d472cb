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

/** The audit history of a trainee (docs/operations.md "Trainee history"; an extension beyond docs/spec/trainee-records-api.md). */
@ApiController('trainees/:trainee_id/history', 'History')
export class TraineeHistoryController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/trainees/{trainee_id}/history[?after=&limit=] — an extension beyond the
   * spec, for the provider's own auditors; it reads the trainee's event stream.
   *
   * - Without `as_of`: 200 `{data: [TimelineEntry], next_cursor, has_more}`, a page of the
   *   timeline, oldest first, one entry per event of the trainee (no global position:
   *   docs/DESIGN.md "Who holds what"): `revision`, `occurred_at`, `event_type`, `changed_fields`
   *   (canonical field names, the v2026.1 name where the versions differ, whatever the path's
   *   version), `changes` (their new values),
   *   `provider_ukprn`, `token_id` (the id of the token that made the request, never the token),
   *   `api_version`, `request_id`, `hash` and `previous_hash`. `limit` entries (default 100, at
   *   most 1,000) from `after` (a `next_cursor` this trainee's history answered the caller's
   *   provider; omitted: from the first event); `has_more` says whether more are stored now.
   *   A page reads only its own events (docs/operations.md "Trainee history").
   * - With `as_of=<ISO 8601 instant>` (a date and a time with `Z` or an offset): 200
   *   `{data: Trainee}`, the trainee as it stood at that instant, in the path version's shape
   *   exactly as GET /trainees/{trainee_id} answers it (placements and degrees included); `after`
   *   and `limit` are ignored.
   *
   * Errors: 404 `Trainee(s) not found` for an unknown trainee, another provider's (never 403,
   * docs/DESIGN.md property 6), or one that did not exist yet at `as_of`; 422
   * `{errors: [{error: "UnprocessableEntity", message: "as_of is not a valid ISO 8601 instant"}]}`
   * for a bad `as_of`; 422 `{message, errors: {after|limit: [...]}}` (the list's shape) for a
   * cursor not answered for this trainee to this provider, or a `limit` outside 1…1,000; 401
   * without a valid token.
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
