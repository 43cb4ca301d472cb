import { CURSOR_CHARS } from '@app/changes';
import { ListQueryInvalid } from '../errors/errors';
import { quoted } from '../trainees/list-trainees/list-trainees.params';

/** Changes per page when `limit` is not given (docs/change-feed.md "Reading the feed"). */
export const CHANGES_LIMIT_DEFAULT = 100;

/** Most changes per page: a larger `limit` answers 422 (docs/change-feed.md "Reading the feed"). */
export const CHANGES_LIMIT_MAX = 1000;

/** A validated feed request: the position to read after (0: from the first change) and the page size. */
export interface ChangesRequest {
  afterPosition: number;
  limit: number;
}

/** The last value of a query parameter sent more than once (as the list's parameters), or the value. */
function single(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * Validates the query of GET /changes (docs/change-feed.md "Reading the feed"): `after` a cursor
 * this service made for the caller's provider, which `decode` (the caller's `CursorCodec.decode`)
 * turns into its position (omitted or empty: from the first change), `limit` an integer from 1 to
 * {@link CHANGES_LIMIT_MAX} (omitted or empty: {@link CHANGES_LIMIT_DEFAULT}); other parameters are
 * ignored. Throws {@link ListQueryInvalid} (the list's 422 shape) naming each bad parameter.
 */
export function toChangesRequest(raw: Record<string, unknown>, decode: (cursor: string) => number | null): ChangesRequest {
  const errors: Record<string, string[]> = {};
  const after = single(raw?.after);
  let afterPosition = 0;
  if (after !== undefined && after !== '') {
    const position = typeof after === 'string' ? decode(after) : null;
    if (position === null) errors.after = [`${quoted(after)} is not a valid cursor`];
    else afterPosition = position;
  }
  const limitText = single(raw?.limit);
  let limit = CHANGES_LIMIT_DEFAULT;
  if (limitText !== undefined && limitText !== '') {
    const n = typeof limitText === 'string' && /^\d{1,7}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(n >= 1 && n <= CHANGES_LIMIT_MAX)) errors.limit = [`must be an integer from 1 to ${CHANGES_LIMIT_MAX}`];
    else limit = n;
  }
  if (Object.keys(errors).length > 0) throw new ListQueryInvalid(errors);
  return { afterPosition, limit };
}

/** The length of an `after` value, as the OpenAPI document declares it. */
export const AFTER_CHARS = CURSOR_CHARS;
