/**
 * The page of one upload, by its status: checking (with a link to refresh it); once checked, a summary of its rows (those that will
 * be added or recommended, those of trainees already registered, those with errors), its errors by row and column with the errors
 * file and a form for the fixed file, or the submit; writing (the same link); and the result with each row's trainee id. One page for
 * either journey (upload-journeys.ts), in its words.
 */
import type { ApiVersion } from '@app/trainees/record';
import type { RowError, UploadKind } from '@app/uploads/decider';
import {
  isAlreadyRegistered,
  personMessage,
  uploadColumnFactsOf,
  uploadVersion,
  type RowPerson,
  type UploadAnswer,
} from '@app/uploads/write';
import { html, type Html } from './html';
import { page, type PageError, type PageHolder } from './layout';
import { csrfField, statusTag, uploadForm, viewOnlyNote } from './start-views';
import { ADD_TRAINEES, filesUrl, startUrl, type UploadJourney } from './upload-journeys';

/** `1 trainee`, `2 trainees`. */
export const trainees = (n: number): string => `${n.toLocaleString('en-GB')} trainee${n === 1 ? '' : 's'}`;

/** `1 row`, `2 rows`. */
const rowCount = (n: number): string => `${n.toLocaleString('en-GB')} row${n === 1 ? '' : 's'}`;

/** "N trainees will be added". */
const goingHeading = (journey: UploadJourney, n: number): string => `${trainees(n)} ${journey.going}`;

/**
 * Row numbers, ascending, in few words: `row 7`, `rows 2 to 21`, `rows 2 to 4, 7, 9 and 10` (a run of three or more as its ends).
 * `''` for none.
 */
export function rowRange(rows: readonly number[]): string {
  const items: string[] = [];
  for (let i = 0; i < rows.length;) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j] + 1) j++;
    if (j - i >= 2) items.push(`${rows[i]} to ${rows[j]}`);
    else for (let k = i; k <= j; k++) items.push(String(rows[k]));
    i = j + 1;
  }
  if (items.length === 0) return '';
  const list = items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  return `${rows.length === 1 ? 'row' : 'rows'} ${list}`;
}

/** A checked file's rows in the page's three groups, each ascending. */
export interface RowGroups {
  /** No message: they will be added (or recommended) once submitted. */
  going: number[];
  /** A trainee already in Register (add trainees only): whatever else is said of the row, adding it again cannot be done. */
  registered: number[];
  /** Every other row with a message. */
  withErrors: number[];
}

/** `rows` (the check's, ascending) grouped by `errors` (the check's messages). */
export function rowGroups(rows: readonly number[], errors: readonly RowError[]): RowGroups {
  const registered = new Set(errors.filter(isAlreadyRegistered).map((e) => e.row));
  const withErrors = new Set(errors.map((e) => e.row).filter((r) => !registered.has(r)));
  return {
    going: rows.filter((r) => !registered.has(r) && !withErrors.has(r)),
    registered: rows.filter((r) => registered.has(r)),
    withErrors: rows.filter((r) => withErrors.has(r)),
  };
}

/**
 * A progress page's words: the status, and a link that reloads the page. The page does not reload
 * itself: a timed refresh fails WCAG 2.2.1 (axe's `meta-refresh`); the user chooses when.
 */
function progress(upload: UploadAnswer, journey: UploadJourney, heading: string, words: string): { title: string; main: Html } {
  return {
    title: heading,
    main: html`<h1 class="govuk-heading-l">${heading}</h1>
      <p class="govuk-body">${statusTag(upload.status, journey)}</p>
      <p class="govuk-body">${words} Refresh this page to see how it stands.</p>
      <p class="govuk-body"><a class="govuk-link" href="${filesUrl(journey)}/${upload.upload_id}">Refresh this page</a></p>`,
  };
}

/** `errors` by row, in row order. */
function byRow(errors: readonly RowError[]): [number, RowError[]][] {
  const rows = new Map<number, RowError[]>();
  for (const e of errors) rows.set(e.row, [...(rows.get(e.row) ?? []), e]);
  return [...rows];
}

/** A GOV.UK summary list row. */
const summaryRow = (key: Html | string, value: Html | string): Html =>
  html`<div class="govuk-summary-list__row">
    <dt class="govuk-summary-list__key">${key}</dt>
    <dd class="govuk-summary-list__value">${value}</dd>
  </div>`;

/**
 * A file's errors, a GOV.UK summary card a row: each error's column (its label, then its header) and what to do, in a person's
 * words. A summary list stacks its key above its value on a narrow screen, so nothing scrolls sideways.
 */
function errorCards(errors: readonly RowError[], version: ApiVersion, kind: UploadKind): Html {
  return html`<h2 class="govuk-heading-m">Errors by row</h2>
    ${byRow(errors).map(
      ([row, rowErrors]) =>
        html`<div class="govuk-summary-card">
          <div class="govuk-summary-card__title-wrapper"><h3 class="govuk-summary-card__title">Row ${row}</h3></div>
          <div class="govuk-summary-card__content">
            <dl class="govuk-summary-list">
              ${rowErrors.map((e) => {
                const facts = e.column === null ? undefined : uploadColumnFactsOf(kind, version, e.column);
                return html`<div class="govuk-summary-list__row">
                  <dt class="govuk-summary-list__key">
                    ${facts ? html`${facts.label} <br /><span class="govuk-hint govuk-!-margin-bottom-0">Column: ${facts.column}</span>` : 'The whole row'}
                  </dt>
                  <dd class="govuk-summary-list__value">${personMessage(e, version, kind)}</dd>
                </div>`;
              })}
            </dl>
          </div>
        </div>`,
    )}`;
}

/** A row's person as the page names them: their names, then their provider trainee id (personal data: the page is `no-store`). */
function personOf(person: RowPerson | undefined): Html {
  if (!person) return html`No name in the file`;
  const name = `${person.first_names} ${person.last_name}`.trim() || 'No name in the file';
  const id = person.provider_trainee_id;
  return html`${name}${id ? html`<br /><span class="govuk-hint govuk-!-margin-bottom-0">Provider trainee ID: ${id}</span>` : null}`;
}

/** A GOV.UK summary list of `rows`, each named by its person. */
function peopleList(rows: readonly number[], people: ReadonlyMap<number, RowPerson>): Html {
  return html`<dl class="govuk-summary-list">${rows.map((r) => summaryRow(`Row ${r}`, personOf(people.get(r))))}</dl>`;
}

/** The summary: how many rows of each group, and which. The registered group for new trainees only. */
function summaryList(journey: UploadJourney, groups: RowGroups): Html {
  const count = (rows: readonly number[], noun: (n: number) => string) =>
    rows.length === 0 ? 'None' : `${noun(rows.length)}: ${rowRange(rows)}`;
  const going = journey.going[0].toUpperCase() + journey.going.slice(1);
  return html`<h2 class="govuk-heading-m">Summary of your file</h2>
    <dl class="govuk-summary-list" id="file-summary">
      ${summaryRow(going, count(groups.going, trainees))}
      ${journey.kind === 'add_trainees' ? summaryRow('Already registered', count(groups.registered, trainees)) : null}
      ${summaryRow('Has errors', count(groups.withErrors, rowCount))}
    </dl>`;
}

/** The trainees already registered, each named with its row, in one card: one sentence for them all, not a message each. */
function registeredCard(groups: RowGroups, people: ReadonlyMap<number, RowPerson>): Html | null {
  if (groups.registered.length === 0) return null;
  return html`<div class="govuk-summary-card" id="already-registered">
    <div class="govuk-summary-card__title-wrapper">
      <h2 class="govuk-summary-card__title">Already registered: ${trainees(groups.registered.length)}</h2>
    </div>
    <div class="govuk-summary-card__content">
      <p class="govuk-body">
        ${groups.registered.length === 1 ? 'This trainee is' : 'These trainees are'} already in Register. Adding them again is not possible:
        leave their rows out of your file.
      </p>
      ${peopleList(groups.registered, people)}
    </div>
  </div>`;
}

/** The rows that will be added or recommended, named, behind a GOV.UK details (a long list stays out of the way). */
function goingDetails(journey: UploadJourney, groups: RowGroups, people: ReadonlyMap<number, RowPerson>): Html | null {
  if (groups.going.length === 0 || people.size === 0) return null;
  return html`<details class="govuk-details" id="going">
    <summary class="govuk-details__summary">
      <span class="govuk-details__summary-text"
        >See the ${groups.going.length === 1 ? 'trainee' : trainees(groups.going.length)} who ${journey.going}</span
      >
    </summary>
    <div class="govuk-details__text">${peopleList(groups.going, people)}</div>
  </details>`;
}

/** The API version of `upload`'s file (its columns and codes). */
const versionOf = (upload: UploadAnswer): ApiVersion => uploadVersion(upload.api_version);

/** What the page shows of a checked upload besides its answer: the check's messages as kept, each row's person, a refused file. */
export interface CheckedDetails {
  /** The check's messages with what each is about; else the answer's. */
  rowErrors?: readonly RowError[];
  /** Each checked row's person, in row order: the rows the summary groups. */
  people?: readonly RowPerson[];
  /** Those of a fixed file just refused. */
  errors?: readonly PageError[];
}

/** A failed check's groups: of each checked row's person, or, without them (the file unreadable), of the rows the messages name. */
function failedGroups(details: Required<CheckedDetails>): RowGroups {
  const rows = details.people.length > 0 ? details.people.map((p) => p.row) : [...new Set(details.rowErrors.map((e) => e.row))];
  return rowGroups(rows, details.rowErrors);
}

/** The heading and first words of a file that cannot be submitted, by what is wrong with its rows. */
function failedWords(groups: RowGroups): { heading: string; words: string } {
  const { going, registered, withErrors } = groups;
  if (withErrors.length > 0 || registered.length === 0) {
    const also = registered.length > 0 ? ` and ${trainees(registered.length)} already registered` : '';
    return {
      heading: 'Fix the errors in your file',
      words:
        `Your file has ${rowCount(withErrors.length)} with errors${also}. No trainees have been added. Fix each error` +
        `${registered.length > 0 ? ', leave out the trainees already registered,' : ''} then upload the file again.`,
    };
  }
  if (going.length === 0) {
    const all = registered.length === 1 ? 'The trainee in your file is' : `All ${trainees(registered.length)} in your file are`;
    return {
      heading: `${all} already registered`,
      words: 'There is nothing to add from this file, so you do not need to upload it again.',
    };
  }
  return {
    heading: 'Some trainees in your file are already registered',
    words:
      `${trainees(registered.length)} in your file ${registered.length === 1 ? 'is' : 'are'} already in Register. Leave ` +
      `${registered.length === 1 ? 'its row' : 'their rows'} out of your file and upload it again to add the other ` +
      `${going.length === 1 ? 'trainee' : trainees(going.length)}.`,
  };
}

/** A checked file that cannot be submitted: what is wrong, the summary, the rows already registered, the errors, the form. */
function failedMain(upload: UploadAnswer, journey: UploadJourney, holder: PageHolder, details: Required<CheckedDetails>): Html {
  const people = new Map(details.people.map((p) => [p.row, p]));
  const groups = failedGroups(details);
  const { heading, words } = failedWords(groups);
  const withErrors = new Set(groups.withErrors);
  const nothingElse = groups.withErrors.length === 0 && groups.going.length === 0;
  const tag =
    groups.withErrors.length > 0
      ? statusTag(upload.status, journey)
      : html`<strong class="govuk-tag govuk-tag--grey">Already registered</strong>`;
  const guide = html`The
    <a class="govuk-link" href="${startUrl(journey)}${journey === ADD_TRAINEES ? '/columns' : '#columns'}">column guide</a> gives each
    column's format${journey === ADD_TRAINEES ? ' and codes' : ''}.`;
  return html`<h1 class="govuk-heading-l">${heading}</h1>
    <p class="govuk-body">${tag}</p>
    <p class="govuk-body">${words} ${groups.withErrors.length > 0 ? guide : null}</p>
    ${
      nothingElse
        ? null
        : html`<p class="govuk-body">
            <a class="govuk-link" href="${filesUrl(journey)}/${upload.upload_id}/errors.csv" download
              >Download your file with its errors (CSV, an errors column added)</a
            >
          </p>`
    }
    ${summaryList(journey, groups)}
    ${
      groups.withErrors.length > 0
        ? errorCards(
            details.rowErrors.filter((e) => withErrors.has(e.row)),
            versionOf(upload),
            journey.kind,
          )
        : null
    }
    ${registeredCard(groups, people)} ${goingDetails(journey, groups, people)}
    ${
      holder.viewOnly
        ? viewOnlyNote()
        : uploadForm(holder.csrfToken, details.errors, nothingElse ? 'Upload another file' : 'Upload your fixed file', filesUrl(journey))
    }`;
}

/** "N trainees will be added": the summary, who, the submit and a cancel (a viewer's note instead). */
function checkedMain(upload: UploadAnswer, journey: UploadJourney, holder: PageHolder, people: readonly RowPerson[]): Html {
  const { csrfToken } = holder;
  const groups = rowGroups(
    people.map((p) => p.row),
    [],
  );
  const action = `${filesUrl(journey)}/${upload.upload_id}`;
  const heading = html`<h1 class="govuk-heading-l">${goingHeading(journey, upload.row_count)}</h1>
    <p class="govuk-body">${statusTag(upload.status, journey)}</p>
    <p class="govuk-body">
      Your file has no errors.
      ${
        journey === ADD_TRAINEES
          ? 'Once you submit it, each row becomes a trainee.'
          : 'Once you submit it, each trainee is recommended for QTS or EYTS on the date the file gives.'
      }
    </p>
    ${people.length > 0 ? html`${summaryList(journey, groups)} ${goingDetails(journey, groups, new Map(people.map((p) => [p.row, p])))}` : null}`;
  if (holder.viewOnly) return html`${heading} ${viewOnlyNote()}`;
  return html`${heading}
    <form method="post" action="${action}/submit" novalidate>
      ${csrfField(csrfToken)}
      <button type="submit" class="govuk-button" data-module="govuk-button">${journey.submit}</button>
    </form>
    <form method="post" action="${action}/cancel" novalidate>
      ${csrfField(csrfToken)}
      <button type="submit" class="govuk-button govuk-button--secondary" data-module="govuk-button">Cancel this upload</button>
    </form>`;
}

/** The result: each row's trainee id (or its errors), also as a CSV file. */
function resultMain(upload: UploadAnswer, journey: UploadJourney): Html {
  const done = upload.rows.filter((r) => 'trainee_id' in r).length;
  // A summary list, not a table: it stacks at 320 px, where a table cell of a 24-character id reaches past the screen.
  const rows = upload.rows.map(
    (r) =>
      html`<div class="govuk-summary-list__row">
        <dt class="govuk-summary-list__key">Row ${r.row}</dt>
        <dd class="govuk-summary-list__value govuk-!-text-break-word">
          ${
            'trainee_id' in r
              ? html`<a class="govuk-link" href="/uploads/trainees/${r.trainee_id}">${r.trainee_id}</a>`
              : r.errors.map((e) => personMessage(e, versionOf(upload), journey.kind)).join('; ')
          }
        </dd>
      </div>`,
  );
  const next =
    journey === ADD_TRAINEES
      ? 'Each trainee is now in the service, as if your system had sent it through the API.'
      : 'Each trainee is now recommended for QTS or EYTS, as if your system had sent the recommendation through the API.';
  return html`<div class="govuk-panel govuk-panel--confirmation">
      <h1 class="govuk-panel__title">${journey.done}</h1>
      <div class="govuk-panel__body">${trainees(done)} ${journey.did} from your file</div>
    </div>
    <h2 class="govuk-heading-m">What happens next</h2>
    <p class="govuk-body">${next}</p>
    <p class="govuk-body">
      <a class="govuk-link" href="${filesUrl(journey)}/${upload.upload_id}/trainees.csv" download>Download the trainee ids (CSV)</a>
    </p>
    <h2 class="govuk-heading-m">Trainee id of each row</h2>
    <dl class="govuk-summary-list" id="result-rows">${rows}</dl>`;
}

/**
 * The page of `upload` of `journey` as its status stands, for `holder`. A checked file's summary groups `details.people`'s rows by
 * `details.rowErrors` (the check's messages as kept, with what each is about; else the answer's).
 */
export function uploadPage(upload: UploadAnswer, holder: PageHolder, journey: UploadJourney, details: CheckedDetails = {}): string {
  const errors = details.errors ?? [];
  const place = { item: journey === ADD_TRAINEES ? 'uploads' : 'recommendations', own: false } as const;
  const common = { signedIn: holder, errors, place };
  switch (upload.status) {
    case 'pending':
      return page({
        ...common,
        ...progress(
          upload,
          journey,
          'Checking your file',
          journey === ADD_TRAINEES
            ? 'Each row is checked as the API checks a new trainee.'
            : 'Each row is checked as the API checks a recommendation.',
        ),
      });
    case 'in_progress':
      return page({
        ...common,
        ...progress(upload, journey, journey.working, `${upload.rows.length} of ${trainees(upload.row_count)} ${journey.did} so far.`),
      });
    case 'failed': {
      const full = { rowErrors: details.rowErrors ?? upload.errors, people: details.people ?? [], errors };
      const main = failedMain(upload, journey, holder, full);
      const title = failedWords(failedGroups(full)).heading;
      return page({ ...common, title, main });
    }
    case 'validated':
      return page({
        ...common,
        title: goingHeading(journey, upload.row_count),
        main: checkedMain(upload, journey, holder, details.people ?? []),
      });
    case 'succeeded':
      return page({ ...common, title: journey.done, main: resultMain(upload, journey) });
    default:
      return page({
        ...common,
        title: 'Upload cancelled',
        main: html`<h1 class="govuk-heading-l">Upload cancelled</h1>
          <p class="govuk-body">${statusTag(upload.status, journey)} Nothing was done with this file.</p>
          <p class="govuk-body"><a class="govuk-link" href="${startUrl(journey)}">Upload another file</a></p>`,
      });
  }
}

/** The result as CSV rows: `row`, `trainee_id`, `errors` (each row's messages, one a line). */
export function resultRows(upload: UploadAnswer, kind: UploadKind = 'add_trainees'): string[][] {
  return [
    ['row', 'trainee_id', 'errors'],
    ...upload.rows.map((r) =>
      'trainee_id' in r
        ? [String(r.row), r.trainee_id, '']
        : [String(r.row), '', r.errors.map((e) => personMessage(e, versionOf(upload), kind)).join('\n')],
    ),
  ];
}
