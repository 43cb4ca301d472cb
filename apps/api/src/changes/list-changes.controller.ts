import { Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import type { Caller } from '@app/trainees/write';
import type { VersionContract } from '@app/trainees/contract';
import { CURSOR_CODEC, type CursorCodec } from '@app/changes';
import { LOG_START } from '@app/event-sourcing';
import { ApiController } from '../openapi/api-controller.decorator';
import { Answers, Operation } from '../openapi/operation.decorators';
import { Contract, CurrentCaller } from '../auth/request-context';
import { AFTER_CHARS, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, toCursorPageRequest } from '../query-params/cursor-page';
import { ListChangesQuery, type ChangesPage } from './list-changes.query';

@ApiController('changes', 'Changes')
export class ListChangesController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  /**
   * GET /api/{version}/changes?after=&limit=: the caller's provider's changes in commit order,
   * oldest first (docs/change-feed.md "Reading the feed"): 200 `{data: [Change], next_cursor,
   * has_more}`, an empty `data` when there is nothing after `after`; 422 `{message, errors}` for a
   * malformed cursor or a limit outside 1…1,000; 503 while the served trainee store has no whole
   * feed.
   */
  @Get()
  @Operation(
    'listChanges',
    "The provider's changes, in commit order",
    "Every change to the provider's trainees (the registry's included), oldest first, each once. Send `next_cursor` back as `after` to read on; `has_more` says whether more are stored now.",
  )
  @ApiQuery({
    name: 'after',
    required: false,
    description:
      "A cursor this service answered to this provider (`cursor` of a change, or `next_cursor`); omitted: from the first change. Opaque: anything else, another provider's cursor included, answers 422.",
    schema: { type: 'string', minLength: AFTER_CHARS, maxLength: AFTER_CHARS, pattern: '^[A-Za-z0-9_-]+$' },
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `Changes per page, default ${PAGE_LIMIT_DEFAULT}, at most ${PAGE_LIMIT_MAX} (more answers 422).`,
    schema: { type: 'integer', minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT },
  })
  @Answers(200, 'A page of changes.', 'ChangesPage')
  @Answers(422, 'A malformed cursor or limit, keyed by parameter.', 'ListQueryErrors')
  @Answers(503, 'The feed is not available until the trainees projection is rebuilt (after an upgrade).', 'ServiceUnavailable')
  list(
    @CurrentCaller() caller: Caller,
    @Contract() contract: VersionContract,
    @Query() raw: Record<string, unknown>,
  ): Promise<ChangesPage> {
    const request = toCursorPageRequest(raw, (cursor) => this.cursors.decode(caller.ukprn, cursor), LOG_START);
    return this.queries.execute<ListChangesQuery, ChangesPage>(new ListChangesQuery(caller, request, contract.version));
  }
}
