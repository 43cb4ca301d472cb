import { CURSOR_CHARS } from '@app/changes';
import { ListQueryInvalid } from '../errors/errors';
import { quoted, refuseUnknownParameters } from './query-values';

/** For a list read by cursor: the change feed and a trainee's history. */
export const PAGE_LIMIT_DEFAULT = 100;

/** A larger `limit` answers 422 (docs/change-feed.md "Reading the feed"). */
export const PAGE_LIMIT_MAX = 1000;

/** As the OpenAPI documents declare it. */
export const AFTER_CHARS = CURSOR_CHARS;

export const CURSOR_PAGE_PARAMETERS = ['after', 'limit'] as const;

/** `start`: from the first item. */
export interface CursorPageRequest<P extends number> {
  afterPosition: P;
  limit: number;
}

/** A parameter sent more than once: the last value, as the list's parameters. */
function single(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * `after` a cursor `decode` turns into its place (omitted or empty: `start`; null from `decode`: refused), `limit` 1 to
 * {@link PAGE_LIMIT_MAX} (default {@link PAGE_LIMIT_DEFAULT}); parameters not `known` refused: {@link ListQueryInvalid} names each.
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
