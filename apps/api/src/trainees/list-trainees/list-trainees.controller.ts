import { Get, Header, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import { Answers, NotFoundAnswer, Operation } from '../../openapi/operation.decorators';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import type { TraineeAnswerPage, TraineeAsOfPage, TraineeListQuery } from '@app/trainees/read';
import { NoTraineesFound } from '../../errors/errors';
import { ApiController } from '../../openapi/api-controller.decorator';
import { JSON_CONTENT_TYPE, listAnswer } from '../../bodies/json-bytes';
import { Contract, CurrentCaller } from '../../auth/request-context';
import { AS_OF_MAX_LENGTH, PAGE_MAX, PER_PAGE_MAX, toListQuery } from './list-trainees.params';
import { QUERY_VALUE_MAX_CHARS } from '../../query-params/query-values';
import { ListTraineesQuery } from './list-trainees.query';
import { ListTraineesAsOfQuery } from './list-trainees-as-of.query';

@ApiController('trainees', 'Trainees')
export class ListTraineesController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/trainees: the caller's trainees of one academic cycle (default: the cycle
   * holding today, UTC), filtered by `status`, `since`, `has_trn`, ordered by updated_at
   * (`sort_order`, default desc), paged (`page` default 1, `per_page` default 50, at most
   * {@link PER_PAGE_MAX}). 200
   * `{data: [Trainee without placements and degrees], meta}`; 404 `No trainees found` when the page
   * is empty; 422 `{message, errors: {param: [..]}}` for a bad parameter. The items are the bytes the
   * projection stored for the version (docs/DESIGN.md "Answers stored as bytes").
   *
   * With `as_of=<ISO 8601 instant>` (a date and a time with `Z` or an offset, not after now, at most
   * {@link AS_OF_MAX_LENGTH} characters): the answer the list would have given at that instant, in
   * the path version's shape, with the same filters, order and paging applied to the trainees as
   * they stood then ("today" being the instant's UTC date); replayed from each of the caller's
   * trainees' streams (docs/DESIGN.md "A provider's trainees at an instant"). Erased trainees
   * never appear (ruling 15). A bad or future `as_of` is the list's 422 keyed `as_of`.
   */
  @Get()
  @Operation(
    'listTrainees',
    "The provider's trainees of one academic cycle",
    'Newest change first unless `sort_order=asc`; paged; list items carry no placements or degrees.',
  )
  @ApiQuery({
    name: 'academic_cycle',
    required: false,
    description: "The cycle's start year (its leading integer is read: `2025`, `2025/26`); default the cycle holding today.",
    schema: { type: 'string', maxLength: QUERY_VALUE_MAX_CHARS, example: '2025' },
  })
  @ApiQuery({
    name: 'status',
    required: false,
    description: 'Keep trainees of this status.',
    schema: { type: 'string', enum: ['course_not_yet_started', 'in_training', 'deferred', 'awarded', 'withdrawn'] },
  })
  @ApiQuery({
    name: 'since',
    required: false,
    description: 'Keep trainees changed at or after this ISO 8601 date or date-time (UTC when no zone).',
    schema: { type: 'string', maxLength: QUERY_VALUE_MAX_CHARS, example: '2025-09-01T00:00:00Z' },
  })
  @ApiQuery({
    name: 'has_trn',
    required: false,
    description: '`true` keeps trainees with a TRN; any other value those without.',
    schema: { type: 'string', maxLength: QUERY_VALUE_MAX_CHARS, example: 'true' },
  })
  @ApiQuery({
    name: 'page',
    required: false,
    description: 'Page number, default 1; past the last page, 404.',
    schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: 1 },
  })
  @ApiQuery({
    name: 'per_page',
    required: false,
    description: `Trainees per page, default 50, at most ${PER_PAGE_MAX} (more answers 422).`,
    schema: { type: 'integer', minimum: 1, maximum: PER_PAGE_MAX, default: 50 },
  })
  @ApiQuery({
    name: 'sort_order',
    required: false,
    description: 'By updated_at, default `desc`.',
    schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
  })
  @ApiQuery({
    name: 'as_of',
    required: false,
    description:
      'List the trainees as they stood at this ISO 8601 instant (a date and a time with `Z` or an offset, not in the future): ' +
      'the answer the list would have given then, the filters and paging applied to that state, "today" being the UTC date of ' +
      'the instant. Replayed from the event log; slower than the list of now.',
    schema: { type: 'string', maxLength: AS_OF_MAX_LENGTH, example: '2026-01-05T10:00:00Z' },
  })
  @Answers(200, 'A page of trainees, with paging meta.', 'TraineeListResponse')
  @NotFoundAnswer('No trainees found (an empty page).')
  @Answers(422, 'An invalid parameter, keyed by parameter.', 'ListQueryErrors')
  @Header('content-type', JSON_CONTENT_TYPE)
  async list(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Query() raw: Record<string, unknown>,
  ): Promise<Buffer> {
    const today = new Date().toISOString().slice(0, 10);
    const { asOf, ...query } = toListQuery(raw, caller.ukprn, today);
    const page = asOf
      ? await this.asOfPage(query, asOf, contract)
      : await this.queries.execute<ListTraineesQuery, TraineeAnswerPage>(new ListTraineesQuery(query, contract.version));
    if (page.items.length === 0) throw new NoTraineesFound();
    return listAnswer(page.items, {
      current_page: query.page,
      total_pages: Math.ceil(page.totalCount / query.perPage),
      total_count: page.totalCount,
      per_page: query.perPage,
    });
  }

  /** The page at `asOf` as list items of the contract's version (rendered as the projection renders them). */
  private async asOfPage(query: TraineeListQuery, asOf: Date, contract: VersionContract): Promise<TraineeAnswerPage> {
    const page = await this.queries.execute<ListTraineesAsOfQuery, TraineeAsOfPage>(new ListTraineesAsOfQuery(query, asOf));
    return { totalCount: page.totalCount, items: page.items.map((t) => Buffer.from(contract.output.traineeItemJson(t))) };
  }
}
