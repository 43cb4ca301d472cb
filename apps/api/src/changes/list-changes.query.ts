import { Inject, ServiceUnavailableException } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/trainees/write';
import type { LogPosition } from '@app/event-sourcing';
import { renderChange, type ChangeItem, CHANGE_FEED, type ChangeFeed, CURSOR_CODEC, type CursorCodec } from '@app/changes';
import type { ApiVersion } from '@app/trainees/record';
import type { CursorPageRequest } from '../query-params/cursor-page';

/** One page of the caller's change feed, in `version`'s field names (docs/change-feed.md). */
export class ListChangesQuery {
  constructor(
    readonly caller: Caller,
    readonly request: CursorPageRequest<LogPosition>,
    readonly version: ApiVersion,
  ) {}
}

/** A page of the feed as answered: the changes, the cursor to send next, and whether more are stored. */
export interface ChangesPage {
  data: ChangeItem[];
  /** The last change's cursor; with no change, the cursor that was sent (or the start's). */
  next_cursor: string;
  has_more: boolean;
}

/**
 * Reads one page of the caller's provider's changes from the trainee read model (one more than
 * asked, to tell `has_more`) and renders them in the version's names, with cursors sealed for the
 * caller's provider. Throws a 503 when the served trainee store has no whole feed (built by a
 * projection version before the feed, docs/change-feed.md "Upgrading").
 */
@QueryHandler(ListChangesQuery)
export class ListChangesHandler implements IQueryHandler<ListChangesQuery, ChangesPage> {
  constructor(
    @Inject(CHANGE_FEED) private readonly feed: ChangeFeed,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  async execute({ caller, request, version }: ListChangesQuery): Promise<ChangesPage> {
    const rows = await this.feed.listChanges(caller.ukprn, request.afterPosition, request.limit + 1);
    if (rows === null) {
      throw new ServiceUnavailableException('The change feed is not available until the trainees projection is rebuilt');
    }
    const page = rows.slice(0, request.limit);
    const last = page.length > 0 ? page[page.length - 1].position : request.afterPosition;
    const cursorOf = (position: LogPosition) => this.cursors.encode(caller.ukprn, position);
    return {
      data: page.map((c) => renderChange(c, version, cursorOf(c.position))),
      next_cursor: cursorOf(last),
      has_more: rows.length > request.limit,
    };
  }
}
