import { ListQueryInvalid } from '../errors/errors';
import { refuseUnknownParameters } from '../query-params/query-values';

/** Most uploads on one page. */
export const UPLOADS_PER_PAGE_MAX = 100;
const UPLOADS_PER_PAGE_DEFAULT = 25;

/** The last page a list query may ask for. */
export const UPLOADS_PAGE_MAX = 1_000_000;

/** The paging meta of a list answer (the `ListMeta` schema). */
export interface ListPage {
  current_page: number;
  total_pages: number;
  total_count: number;
  per_page: number;
}

/** `page` (from 1) and `per_page` (1 to 100, default 25) of a list query; 422 naming the parameter otherwise, or any other parameter. */
export function listPage(raw: Record<string, unknown>): { page: number; perPage: number } {
  const errors: Record<string, string[]> = {};
  refuseUnknownParameters(raw, ['page', 'per_page'], errors);
  const read = (name: string, fallback: number, max: number): number => {
    const value = raw[name];
    if (value === undefined || value === '') return fallback;
    const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
    if (!(n >= 1 && n <= max)) errors[name] = [`${name} must be an integer from 1 to ${max}`];
    return n;
  };
  const page = read('page', 1, UPLOADS_PAGE_MAX);
  const perPage = read('per_page', UPLOADS_PER_PAGE_DEFAULT, UPLOADS_PER_PAGE_MAX);
  if (Object.keys(errors).length > 0) throw new ListQueryInvalid(errors);
  return { page, perPage };
}
