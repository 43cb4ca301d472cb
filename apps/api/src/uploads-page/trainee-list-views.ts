/**
 * The list of a provider's trainees (`GET /uploads/trainees`): the filters as a GET form (search, academic year, statuses), the count,
 * a GOV.UK summary card a trainee (name linked to its page, provider trainee id, status, TRN), which needs no sideways scroll at
 * 320 px, and GOV.UK pagination.
 */
import { FIRST_ACADEMIC_CYCLE, LAST_ACADEMIC_CYCLE, academicCycleLabel } from '@app/trainees/decider';
import { STATUS_FILTERS, type TraineeListPage } from '@app/trainees/read';
import { catalogueEntry, type Trainee } from '@app/trainees/record';
import { html, type Html } from './html';
import { page, type PageError, type PageHolder } from './layout';
import { fieldError } from './start-views';
import { TRAINEES_PER_PAGE, traineeListHref, type TraineeListRequest } from './trainee-list-request';
import { traineeName, traineeStatusTag } from './trainee-words';

/** `1 trainee`, `1,200 trainees`. */
export const traineeCount = (n: number): string => `${n.toLocaleString('en-GB')} trainee${n === 1 ? '' : 's'}`;

/** The last page of `total` trainees (1 when there are none). */
export const lastPageOf = (total: number): number => Math.max(1, Math.ceil(total / TRAINEES_PER_PAGE));

/**
 * The page numbers GOV.UK's pagination shows for page `current` of `last`: the first, the last, the current one and those beside it,
 * with `null` (an ellipsis) where numbers are left out.
 */
export function pageNumbers(current: number, last: number): (number | null)[] {
  const shown = [...new Set([1, current - 1, current, current + 1, last])].filter((n) => n >= 1 && n <= last).sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const n of shown) {
    const before = out[out.length - 1];
    if (typeof before === 'number' && n - before > 1) out.push(null);
    out.push(n);
  }
  return out;
}

const PREVIOUS_ICON = html`<svg
  class="govuk-pagination__icon govuk-pagination__icon--prev"
  xmlns="http://www.w3.org/2000/svg"
  height="13"
  width="15"
  aria-hidden="true"
  focusable="false"
  viewBox="0 0 15 13"
>
  <path d="m6.5938-0.0078125-6.7266 6.7266 6.7441 6.4062 1.377-1.449-4.1856-3.9768h12.896v-2h-12.984l4.2931-4.293-1.414-1.414z"></path>
</svg>`;
const NEXT_ICON = html`<svg
  class="govuk-pagination__icon govuk-pagination__icon--next"
  xmlns="http://www.w3.org/2000/svg"
  height="13"
  width="15"
  aria-hidden="true"
  focusable="false"
  viewBox="0 0 15 13"
>
  <path d="m8.107-0.0078125-1.4136 1.414 4.2926 4.293h-12.986v2h12.896l-4.1855 3.9766 1.377 1.4492 6.7441-6.4062-6.7246-6.7266z"></path>
</svg>`;

/** GOV.UK's pagination (its `template.njk` written as HTML): previous, the page numbers, next; nothing for a list of one page. */
function pagination(request: TraineeListRequest, last: number, today: string): Html | null {
  if (last <= 1) return null;
  const current = Math.min(request.page, last);
  const href = (n: number) => traineeListHref(request, today, { page: n });
  const items = pageNumbers(current, last).map((n) =>
    n === null
      ? html`<li class="govuk-pagination__item govuk-pagination__item--ellipsis">&ctdot;</li>`
      : html`<li class="govuk-pagination__item${n === request.page ? ' govuk-pagination__item--current' : ''}">
          <a
            class="govuk-link govuk-pagination__link"
            href="${href(n)}"
            aria-label="Page ${n}"
            ${n === request.page ? html`aria-current="page"` : null}
            >${n}</a
          >
        </li>`,
  );
  return html`<nav class="govuk-pagination" aria-label="Pagination">
    ${
      request.page > 1
        ? html`<div class="govuk-pagination__prev">
            <a class="govuk-link govuk-pagination__link" href="${href(current === request.page ? current - 1 : last)}" rel="prev"
              >${PREVIOUS_ICON}<span class="govuk-pagination__link-title">Previous<span class="govuk-visually-hidden"> page</span></span></a
            >
          </div>`
        : null
    }
    <ul class="govuk-pagination__list">
      ${items}
    </ul>
    ${
      request.page < last
        ? html`<div class="govuk-pagination__next">
            <a class="govuk-link govuk-pagination__link" href="${href(request.page + 1)}" rel="next"
              ><span class="govuk-pagination__link-title">Next<span class="govuk-visually-hidden"> page</span></span
              >${NEXT_ICON}</a
            >
          </div>`
        : null
    }
  </nav>`;
}

/** The form's group class, with its error variant when `errors` has one about `field`. */
const groupClass = (errors: readonly PageError[], field: string) =>
  `govuk-form-group${errors.some((e) => e.field === field) ? ' govuk-form-group--error' : ''}`;

/** The filters: a GET form, so the list's address holds them (a link to share, the browser's back button). */
function filters(request: TraineeListRequest, errors: readonly PageError[]): Html {
  const searchError = fieldError(errors, 'search');
  const cycleError = fieldError(errors, 'cycle');
  const statusError = fieldError(errors, 'status');
  const cycles = Array.from({ length: LAST_ACADEMIC_CYCLE - FIRST_ACADEMIC_CYCLE + 1 }, (_, i) => LAST_ACADEMIC_CYCLE - i);
  return html`<form method="get" action="/uploads/trainees" novalidate>
    <div class="${groupClass(errors, 'search')}">
      <label class="govuk-label govuk-label--s" for="search">Search by name or provider trainee ID</label>
      <div id="search-hint" class="govuk-hint">First or last name, or part of it. For example, Smith or 99157234/2/01.</div>
      ${searchError}
      <input
        class="govuk-input govuk-!-width-two-thirds${searchError ? ' govuk-input--error' : ''}"
        id="search"
        name="search"
        type="search"
        spellcheck="false"
        autocomplete="off"
        value="${request.search}"
        aria-describedby="search-hint${searchError ? ' search-error' : ''}"
      />
    </div>
    <div class="${groupClass(errors, 'cycle')}">
      <label class="govuk-label govuk-label--s" for="cycle">Academic year</label>
      ${cycleError}
      <select
        class="govuk-select${cycleError ? ' govuk-select--error' : ''}"
        id="cycle"
        name="cycle"
        ${cycleError ? html`aria-describedby="cycle-error"` : null}
      >
        ${cycles.map((c) => html`<option value="${c}" ${c === request.cycle ? html`selected` : null}>${academicCycleLabel(c)}</option>`)}
      </select>
    </div>
    <div class="${groupClass(errors, 'status')}">
      <fieldset class="govuk-fieldset" ${statusError ? html`aria-describedby="status-error"` : null}>
        <legend class="govuk-fieldset__legend govuk-fieldset__legend--s">Status</legend>
        ${statusError}
        <div class="govuk-checkboxes govuk-checkboxes--small" data-module="govuk-checkboxes">
          ${STATUS_FILTERS.map(
            (s, i) =>
              html`<div class="govuk-checkboxes__item">
                <input
                  class="govuk-checkboxes__input"
                  id="${i === 0 ? 'status' : `status-${s}`}"
                  name="status"
                  type="checkbox"
                  value="${s}"
                  ${request.statuses.includes(s) ? html`checked` : null}
                />
                <label class="govuk-label govuk-checkboxes__label" for="${i === 0 ? 'status' : `status-${s}`}"
                  >${catalogueEntry('status_filter', s)?.label ?? s}</label
                >
              </div>`,
          )}
        </div>
      </fieldset>
    </div>
    <div class="govuk-button-group">
      <button type="submit" class="govuk-button govuk-button--secondary" data-module="govuk-button">Show trainees</button>
      <a class="govuk-link" href="/uploads/trainees">Clear filters</a>
    </div>
  </form>`;
}

/** One trainee as a GOV.UK summary card: its name linked to its page, its provider trainee id, status and TRN. */
function traineeCard(trainee: Trainee, today: string): Html {
  const row = (key: string, value: Html | string) =>
    html`<div class="govuk-summary-list__row">
      <dt class="govuk-summary-list__key">${key}</dt>
      <dd class="govuk-summary-list__value">${value}</dd>
    </div>`;
  return html`<div class="govuk-summary-card">
    <div class="govuk-summary-card__title-wrapper">
      <h3 class="govuk-summary-card__title">
        <a class="govuk-link" href="/uploads/trainees/${encodeURIComponent(trainee.trainee_id)}">${traineeName(trainee)}</a>
      </h3>
    </div>
    <div class="govuk-summary-card__content">
      <dl class="govuk-summary-list">
        ${row('Provider trainee ID', trainee.details.provider_trainee_id ?? 'None')} ${row('Status', traineeStatusTag(trainee, today))}
        ${row('TRN', trainee.trn ?? 'Not yet')}
      </dl>
    </div>
  </div>`;
}

/** The results: the count, the page's cards and the pagination; with errors, what to do first. */
function results(request: TraineeListRequest, found: TraineeListPage | null, today: string): Html {
  if (found === null) {
    return html`<h2 class="govuk-heading-m" id="results" tabindex="-1">Your trainees</h2>
      <p class="govuk-body">Fix the problem above to see your trainees.</p>`;
  }
  const last = lastPageOf(found.totalCount);
  const where = html`in ${academicCycleLabel(request.cycle)}${request.words.length > 0 ? html` matching your search` : null}`;
  return html`<h2 class="govuk-heading-m" id="results" tabindex="-1">${traineeCount(found.totalCount)}</h2>
    <p class="govuk-body">
      ${found.totalCount === 0 ? html`No trainees ${where}.` : html`Page ${Math.min(request.page, last)} of ${last}, ${where}.`}
    </p>
    ${found.items.map((t) => traineeCard(t, today))} ${pagination(request, last, today)}`;
}

/**
 * The list page for `holder`: the filters as `request` holds them, `errors` as the error summary, and the page `found` (null when
 * errors kept the list from being read); `today` (`YYYY-MM-DD`, UTC) the day the statuses stand on.
 */
export function traineeListPage(
  holder: PageHolder,
  request: TraineeListRequest,
  found: TraineeListPage | null,
  today: string,
  errors: readonly PageError[] = [],
): string {
  return page({
    title: 'Your trainees',
    signedIn: holder,
    errors,
    place: { item: 'trainees', own: true },
    main: html`<h1 class="govuk-heading-l">Your trainees</h1>
      <p class="govuk-body">
        Every trainee your provider has added, through your system or a file, one academic year at a time. Select a trainee to see their
        record and its history.
      </p>
      ${filters(request, errors)} ${results(request, found, today)}`,
  });
}
