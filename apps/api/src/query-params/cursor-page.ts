import { CURSOR_CHARS } from '@app/changes';
import { ListQueryInvalid } from '../errors/errors';
import { quoted, refuseUnknownParameters } from './query-values';

/**
 * Items per page when `limit` is not given, for a list read by cursor: the change feed
 * (docs/change-feed.md "Reading the feed") and a trainee's history (docs/operations.md "Trainee history").
 */
export const PAGE_LIMIT_DEFAULT = 100;

/** Most items per page of a list read by cursor: a larger `limit` answers 422 (docs/change-feed.md "Reading the feed"). */
export const PAGE_LIMIT_MAX = 1000;

/** The length of an `after` cursor, as the OpenAPI documents declare it (docs/change-feed.md "Cursors"). */
export const AFTER_CHARS = CURSOR_CHARS;

/** The parameters of a list read by cursor. */
export const CURSOR_PAGE_PARAMETERS = ['after', 'limit'] as const;

/** A validated page request: the place to read after (`start`: from the first item) and the page size. */
export interface CursorPageRequest<P extends number> {
  afterPosition: P;
  limit: number;
}

/** The last value of a query parameter sent more than once (as the list's parameters), or the value. */
function single(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * Validates the paging query of a list read by cursor (GET /changes, docs/change-feed.md "Reading
 * the feed"; GET …/history, docs/operations.md "Trainee history"): `after` a cursor this service
 * made, which `decode` (the caller's cursor codec) turns into its place, a log position or a
 * timeline place (omitted or empty: `start`, from the first item; null from `decode`: refused),
 * `limit` an integer from 1 to {@link PAGE_LIMIT_MAX} (omitted or empty: {@link PAGE_LIMIT_DEFAULT});
 * any parameter not in `known` (default `after`, `limit`) is refused. Throws
 * {@link ListQueryInvalid} (the list's 422 shape) naming each bad parameter.
 */
export function toCursorPageRequest<P extends number>(
  raw: Record<string, unknown>,
  decode: (cursor: string) => P | null,
  start: P,
  known: readonly string[] = CURSOR_PAGE_PARAMETERS,
): CursorPageRequest<P> {
  const errors: Record<string, string[]> = {};
  refuseUnknownParameters(raw, known, errors);
  const after = single(raw?.after);
  let afterPosition = start;
  if (after !== undefined && after !== '') {
    const position = typeof after === 'string' ? decode(after) : null;
    if (position === null) errors.after = [`${quoted(after)} is not a valid cursor`];
    else afterPosition = position;
  }
  const limitText = single(raw?.limit);
  let limit = PAGE_LIMIT_DEFAULT;
  if (limitText !== undefined && limitText !== '') {
    const n = typeof limitText === 'string' && /^\d{1,7}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(n >= 1 && n <= PAGE_LIMIT_MAX)) errors.limit = [`must be an integer from 1 to ${PAGE_LIMIT_MAX}`];
    else limit = n;
  }
  if (Object.keys(errors).length > 0) throw new ListQueryInvalid(errors);
  return { afterPosition, limit };
}
