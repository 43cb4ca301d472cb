/**
 * The query of the uploads page's list of a provider's trainees (`GET /uploads/trainees`), read and bounded: the academic year (the
 * current one unless chosen, as the API's list), the statuses (the API's `status` values), a search and a page. Each bad value is an
 * error summary's message linked to its field, never a failure.
 */
import { currentAcademicCycle, isKnownAcademicCycle } from '@app/trainees/decider';
import { searchWords, STATUS_FILTERS, TRAINEE_SEARCH_CHARS_MAX, TRAINEE_SEARCH_WORDS_MAX, type StatusFilter } from '@app/trainees/read';
import type { PageError } from './layout';

/** Trainees on a page of the list. */
export const TRAINEES_PER_PAGE = 25;
/** The last page asked for that is read: past it is no list a provider has (250,000 trainees in one year). */
export const TRAINEE_PAGES_MAX = 10_000;

/** What the list shows: as asked where it could be read, else the defaults, so the filters' form shows what was sent. */
export interface TraineeListRequest {
  /** Start year of the academic year shown. */
  cycle: number;
  statuses: StatusFilter[];
  /** As typed, trimmed; '' for none. */
  search: string;
  /** The search's words ({@link searchWords}). */
  words: string[];
  page: number;
}

/** One value of `raw[name]`: undefined when absent or empty, null when sent more than once. */
function single(raw: Readonly<Record<string, unknown>>, name: string): string | null | undefined {
  const value = raw[name];
  if (Array.isArray(value)) return value.length === 1 && typeof value[0] === 'string' ? value[0] || undefined : null;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The search as typed, or its error. */
function searchOf(raw: Readonly<Record<string, unknown>>, errors: PageError[]): string {
  const value = single(raw, 'search');
  if (value === null) errors.push({ field: 'search', message: 'Enter one search' });
  const search = (value ?? '').trim();
  if (search.length > TRAINEE_SEARCH_CHARS_MAX) {
    errors.push({ field: 'search', message: `Search must be ${TRAINEE_SEARCH_CHARS_MAX} characters or fewer` });
  } else if (searchWords(search).length > TRAINEE_SEARCH_WORDS_MAX) {
    errors.push({ field: 'search', message: `Search for ${TRAINEE_SEARCH_WORDS_MAX} words or fewer` });
  }
  return search;
}

/** The academic year asked for, else the one holding `today`; its error when it is not one of the list's. */
function cycleOf(raw: Readonly<Record<string, unknown>>, today: string, errors: PageError[]): number {
  const value = single(raw, 'cycle');
  if (value === undefined) return currentAcademicCycle(today);
  const year = value !== null && /^\d{4}$/.test(value) ? Number(value) : NaN;
  if (isKnownAcademicCycle(year)) return year;
  errors.push({ field: 'cycle', message: 'Select an academic year from the list' });
  return currentAcademicCycle(today);
}

/** The statuses ticked, each once, in the list's order; an error for a value not in it, or more values than it has. */
function statusesOf(raw: Readonly<Record<string, unknown>>, errors: PageError[]): StatusFilter[] {
  const value = raw.status;
  const sent = (Array.isArray(value) ? value : value === undefined || value === '' ? [] : [value]) as unknown[];
  const known = (s: unknown): s is StatusFilter => (STATUS_FILTERS as readonly unknown[]).includes(s);
  if (sent.length > STATUS_FILTERS.length || !sent.every(known)) {
    errors.push({ field: 'status', message: 'Select statuses from the list' });
  }
  return STATUS_FILTERS.filter((s) => sent.includes(s));
}

/** The page asked for, 1 when none; its error unless a whole number from 1 to {@link TRAINEE_PAGES_MAX}. */
function pageOf(raw: Readonly<Record<string, unknown>>, errors: PageError[]): number {
  const value = single(raw, 'page');
  if (value === undefined) return 1;
  const page = value !== null && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (page >= 1 && page <= TRAINEE_PAGES_MAX) return page;
  errors.push({ field: 'results', message: `Page must be a whole number from 1 to ${TRAINEE_PAGES_MAX.toLocaleString('en-GB')}` });
  return 1;
}

/**
 * The list's request from the query string as Fastify parsed it (a repeated name as an array), on `today` (`YYYY-MM-DD`, UTC), and
 * its errors (none when every value could be read). Other names are ignored.
 */
export function traineeListRequest(
  raw: Readonly<Record<string, unknown>>,
  today: string,
): { request: TraineeListRequest; errors: PageError[] } {
  const errors: PageError[] = [];
  const search = searchOf(raw, errors);
  const cycle = cycleOf(raw, today, errors);
  const statuses = statusesOf(raw, errors);
  const page = pageOf(raw, errors);
  return { request: { cycle, statuses, search, words: searchWords(search), page }, errors };
}

/** The list's address for `request` with `changes`, holding only what differs from the defaults on `today` (a plain list: no query). */
export function traineeListHref(request: TraineeListRequest, today: string, changes: Partial<TraineeListRequest> = {}): string {
  const r = { ...request, ...changes };
  const params = new URLSearchParams();
  if (r.search !== '') params.set('search', r.search);
  if (r.cycle !== currentAcademicCycle(today)) params.set('cycle', String(r.cycle));
  for (const s of r.statuses) params.append('status', s);
  if (r.page !== 1) params.set('page', String(r.page));
  const query = params.toString();
  return query === '' ? '/uploads/trainees' : `/uploads/trainees?${query}`;
}
