import type { CursorCodec } from '@app/changes';
import { TIMELINE_START, TIMELINE_STATUSES, type TimelinePlace } from '@app/trainees/read';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, toCursorPageRequest } from '../../query-params/cursor-page';
import { refuseUnknownParameters } from '../../query-params/query-values';
import { ListQueryInvalid } from '../../errors/errors';

/** As the change feed (docs/operations.md "Trainee history"). */
export const HISTORY_LIMIT_DEFAULT = PAGE_LIMIT_DEFAULT;

/** A larger `limit` answers 422; as the change feed. */
export const HISTORY_LIMIT_MAX = PAGE_LIMIT_MAX;

/** One per lifecycle state a page may start in. */
const STATUS_SLOTS = 16;

export const HISTORY_PARAMETERS = ['after', 'limit', 'as_of'] as const;

/** `ListQueryInvalid` (the list's 422 shape) naming each parameter GET …/history does not take. */
export function refuseUnknownHistoryParameters(raw: Record<string, unknown>): void {
  const errors: Record<string, string[]> = {};
  refuseUnknownParameters(raw, HISTORY_PARAMETERS, errors);
  if (Object.keys(errors).length > 0) throw new ListQueryInvalid(errors);
}

export interface HistoryRequest {
  from: TimelinePlace;
  limit: number;
}

/**
 * The history's cursors: the change feed's `CursorCodec` sealing `revision × 16 + state index` for one provider and one (stored) trainee,
 * so another provider's, trainee's or the feed's cursor is refused (docs/operations.md "Trainee history").
 */
export class HistoryCursors {
  constructor(
    private readonly codec: CursorCodec,
    private readonly ukprn: string,
    private readonly traineeId: string,
  ) {}

  encode(place: TimelinePlace): string {
    return this.codec.seal(this.scope(), place.revision * STATUS_SLOTS + TIMELINE_STATUSES.indexOf(place.status));
  }

  /** Null unless this provider's history of this trainee answered it; never throws. */
  decode(cursor: string): TimelinePlace | null {
    const value = this.decodeValue(cursor);
    return value === null ? null : placeOf(value);
  }

  /** Revision × 16 + state index, when {@link decode} takes it; else null. */
  decodeValue(cursor: string): number | null {
    const value = this.codec.open(this.scope(), cursor);
    return value === null || placeOf(value) === null ? null : value;
  }

  /** No UKPRN (8 digits) is this string, so feed cursors never decode here. */
  private scope(): string {
    return `history\u0000${this.ukprn}\u0000${this.traineeId}`;
  }
}

/**
 * The paging query as the change feed's (`toCursorPageRequest`): `after` a cursor, `limit` 1 to {@link HISTORY_LIMIT_MAX}; no other
 * parameter but `as_of`. `ListQueryInvalid` naming each bad one.
 */
export function toHistoryRequest(raw: Record<string, unknown>, cursors: HistoryCursors): HistoryRequest {
  const { afterPosition, limit } = toCursorPageRequest(raw, (cursor) => cursors.decodeValue(cursor), 0, HISTORY_PARAMETERS);
  return { from: placeOf(afterPosition) ?? TIMELINE_START, limit };
}

/** 0: the start; null when its state slot names no state. */
function placeOf(value: number): TimelinePlace | null {
  const status = TIMELINE_STATUSES[value % STATUS_SLOTS];
  return status === undefined ? null : { revision: Math.floor(value / STATUS_SLOTS), status };
}
