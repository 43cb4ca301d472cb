import type { CursorCodec } from '@app/changes';
import { TIMELINE_START, TIMELINE_STATUSES, type TimelinePlace } from '@app/trainees/read';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, toCursorPageRequest } from '../../query-params/cursor-page';
import { refuseUnknownParameters } from '../../query-params/query-values';
import { ListQueryInvalid } from '../../errors/errors';

/** Timeline entries per page when `limit` is not given (docs/operations.md "Trainee history"; as the change feed). */
export const HISTORY_LIMIT_DEFAULT = PAGE_LIMIT_DEFAULT;

/** Most timeline entries per page: a larger `limit` answers 422 (docs/operations.md "Trainee history"; as the change feed). */
export const HISTORY_LIMIT_MAX = PAGE_LIMIT_MAX;

/** Slots of a cursor's value per revision: one for each lifecycle state a page may start in. */
const STATUS_SLOTS = 16;

/** The parameters of GET …/history: a page's `after` and `limit`, or `as_of`. */
export const HISTORY_PARAMETERS = ['after', 'limit', 'as_of'] as const;

/** Throws `ListQueryInvalid` (the list's 422 shape) naming each parameter of `raw` that GET …/history does not take. */
export function refuseUnknownHistoryParameters(raw: Record<string, unknown>): void {
  const errors: Record<string, string[]> = {};
  refuseUnknownParameters(raw, HISTORY_PARAMETERS, errors);
  if (Object.keys(errors).length > 0) throw new ListQueryInvalid(errors);
}

/** A validated history request: where the page starts and its size. */
export interface HistoryRequest {
  from: TimelinePlace;
  limit: number;
}

/**
 * The history's cursors (docs/operations.md "Trainee history"): the change feed's `CursorCodec`
 * (docs/change-feed.md "Cursors": opaque, authenticated, 23 characters) sealing the place where
 * the next page starts, `revision × 16 + the index of its lifecycle state`, for one provider and
 * one trainee: the codec's provider check is made of both, so a cursor of another provider, of
 * another trainee or of the change feed deciphers to another check and is refused. `traineeId` is
 * the stored id, so a cursor serves whatever case the path's id is written in.
 */
export class HistoryCursors {
  constructor(
    private readonly codec: CursorCodec,
    private readonly ukprn: string,
    private readonly traineeId: string,
  ) {}

  /** The cursor of `place`. */
  encode(place: TimelinePlace): string {
    return this.codec.seal(this.scope(), place.revision * STATUS_SLOTS + TIMELINE_STATUSES.indexOf(place.status));
  }

  /** The place `cursor` stands for when this provider's history of this trainee answered it; null for anything else. Never throws. */
  decode(cursor: string): TimelinePlace | null {
    const value = this.decodeValue(cursor);
    return value === null ? null : placeOf(value);
  }

  /** The value `cursor` seals (revision × 16 + state index), when {@link decode} takes it; else null. */
  decodeValue(cursor: string): number | null {
    const value = this.codec.open(this.scope(), cursor);
    return value === null || placeOf(value) === null ? null : value;
  }

  /** What the codec's check value is made of: no UKPRN (8 digits) is this string, so feed cursors never decode here. */
  private scope(): string {
    return `history\u0000${this.ukprn}\u0000${this.traineeId}`;
  }
}

/**
 * Validates the paging query of GET …/history (docs/operations.md "Trainee history") as the
 * change feed's, a list read by cursor (`toCursorPageRequest`): `after` a cursor of `cursors` (omitted or empty: from the
 * first event), `limit` an integer from 1 to {@link HISTORY_LIMIT_MAX} (omitted or empty:
 * {@link HISTORY_LIMIT_DEFAULT}); no other parameter but `as_of`. Throws `ListQueryInvalid` (the
 * list's 422 shape, keyed by parameter) naming each bad one.
 */
export function toHistoryRequest(raw: Record<string, unknown>, cursors: HistoryCursors): HistoryRequest {
  const { afterPosition, limit } = toCursorPageRequest(raw, (cursor) => cursors.decodeValue(cursor), 0, HISTORY_PARAMETERS);
  return { from: placeOf(afterPosition) ?? TIMELINE_START, limit };
}

/** The place a cursor's value packs (0: the start); null when its state slot names no state. */
function placeOf(value: number): TimelinePlace | null {
  const status = TIMELINE_STATUSES[value % STATUS_SLOTS];
  return status === undefined ? null : { revision: Math.floor(value / STATUS_SLOTS), status };
}
