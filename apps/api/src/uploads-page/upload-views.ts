/**
 * The page of one upload, by its status: checking (with a link to refresh it), its errors by row and column
 * with the errors file and a form for the fixed file, "N trainees will be added" with the submit,
 * adding (the same), and the result with each row's trainee id.
 */
import type { ApiVersion } from '@app/trainees/record';
import type { RowError } from '@app/uploads/decider';
import { columnFactsOf, personMessage, uploadVersion, type UploadAnswer } from '@app/uploads/write';
import { html, type Html } from './html';
import { page, type PageError, type PageHolder } from './layout';
import { csrfField, statusTag, table, uploadForm, viewOnlyNote } from './start-views';

/** `1 trainee`, `2 trainees`. */
const trainees = (n: number) => `${n.toLocaleString('en-GB')} trainee${n === 1 ? '' : 's'}`;

/**
 * A progress page's words: the status, and a link that reloads the page. The page does not reload
 * itself: a timed refresh fails WCAG 2.2.1 (axe's `meta-refresh`); the user chooses when.
 */
function progress(upload: UploadAnswer, heading: string, words: string): { title: string; main: Html } {
  return {
    title: heading,
    main: html`<h1 class="govuk-heading-l">${heading}</h1>
      <p class="govuk-body">${statusTag(upload.status)}</p>
      <p class="govuk-body">${words} Refresh this page to see how it stands.</p>
      <p class="govuk-body"><a class="govuk-link" href="/uploads/files/${upload.upload_id}">Refresh this page</a></p>`,
  };
}

/** `errors` by row, in row order. */
function byRow(errors: readonly RowError[]): [number, RowError[]][] {
  const rows = new Map<number, RowError[]>();
  for (const e of errors) rows.set(e.row, [...(rows.get(e.row) ?? []), e]);
  return [...rows];
}

/**
 * A file's errors, a GOV.UK summary card a row: each error's column (its label, then its header) and what to do, in a person's
 * words. A summary list stacks its key above its value on a narrow screen, so nothing scrolls sideways.
 */
function errorCards(errors: readonly RowError[], version: ApiVersion): Html {
  return html`<h2 class="govuk-heading-m">Errors by row</h2>
    ${byRow(errors).map(
      ([row, rowErrors]) =>
        html`<div class="govuk-summary-card">
          <div class="govuk-summary-card__title-wrapper"><h3 class="govuk-summary-card__title">Row ${row}</h3></div>
          <div class="govuk-summary-card__content">
            <dl class="govuk-summary-list">
              ${rowErrors.map((e) => {
                const facts = e.column === null ? undefined : columnFactsOf(version, e.column);
                return html`<div class="govuk-summary-list__row">
                  <dt class="govuk-summary-list__key">
                    ${facts ? html`${facts.label} <br /><span class="govuk-hint govuk-!-margin-bottom-0">Column: ${facts.column}</span>` : 'The whole row'}
                  </dt>
                  <dd class="govuk-summary-list__value">${personMessage(e, version)}</dd>
                </div>`;
              })}
            </dl>
          </div>
        </div>`,
    )}`;
}

/** The errors of a checked file by row, the errors file, and the form for the fixed file (a viewer's note instead). */
function errorsMain(upload: UploadAnswer, rowErrors: readonly RowError[], holder: PageHolder, errors: readonly PageError[]): Html {
  return html`<h1 class="govuk-heading-l">Fix the errors in your file</h1>
    <p class="govuk-body">${statusTag(upload.status)}</p>
    <p class="govuk-body">
      Your file has ${upload.error_count.toLocaleString('en-GB')} ${upload.error_count === 1 ? 'error' : 'errors'}. No trainees have been
      added. Fix each error, then upload the file again. The <a class="govuk-link" href="/uploads/columns">column guide</a> gives each
      column's format and codes.
    </p>
    <p class="govuk-body">
      <a class="govuk-link" href="/uploads/files/${upload.upload_id}/errors.csv" download
        >Download your file with its errors (CSV, an errors column added)</a
      >
    </p>
    ${errorCards(rowErrors, versionOf(upload))}
    ${holder.viewOnly ? viewOnlyNote() : uploadForm(holder.csrfToken, errors, 'Upload your fixed file')}`;
}

/** The API version of `upload`'s file (its columns and codes). */
const versionOf = (upload: UploadAnswer): ApiVersion => uploadVersion(upload.api_version);

/** "N trainees will be added": the submit, and a cancel (a viewer's note instead). */
function checkedMain(upload: UploadAnswer, holder: PageHolder): Html {
  const { csrfToken } = holder;
  const heading = html`<h1 class="govuk-heading-l">${trainees(upload.row_count)} will be added</h1>
    <p class="govuk-body">${statusTag(upload.status)}</p>
    <p class="govuk-body">Your file has no errors. Once you submit it, each row becomes a trainee.</p>`;
  if (holder.viewOnly) return html`${heading} ${viewOnlyNote()}`;
  return html`${heading}
    <form method="post" action="/uploads/files/${upload.upload_id}/submit" novalidate>
      ${csrfField(csrfToken)}
      <button type="submit" class="govuk-button" data-module="govuk-button">Submit trainees</button>
    </form>
    <form method="post" action="/uploads/files/${upload.upload_id}/cancel" novalidate>
      ${csrfField(csrfToken)}
      <button type="submit" class="govuk-button govuk-button--secondary" data-module="govuk-button">Cancel this upload</button>
    </form>`;
}

/** The result: each row's trainee id (or its errors), also as a CSV file. */
function resultMain(upload: UploadAnswer): Html {
  const added = upload.rows.filter((r) => 'trainee_id' in r).length;
  const rows = upload.rows.map((r) =>
    'trainee_id' in r ? [r.row, r.trainee_id] : [r.row, r.errors.map((e) => personMessage(e, versionOf(upload))).join('; ')],
  );
  return html`<div class="govuk-panel govuk-panel--confirmation">
      <h1 class="govuk-panel__title">Trainees added</h1>
      <div class="govuk-panel__body">${trainees(added)} added from your file</div>
    </div>
    <h2 class="govuk-heading-m">What happens next</h2>
    <p class="govuk-body">Each trainee is now in the service, as if your system had sent it through the API.</p>
    <p class="govuk-body">
      <a class="govuk-link" href="/uploads/files/${upload.upload_id}/trainees.csv" download>Download the trainee ids (CSV)</a>
    </p>
    ${table('Trainee id of each row', ['Row', 'Trainee id'], rows)}`;
}

/**
 * The page of `upload` as its status stands, for `holder`; `errors` those of a fixed file just refused; `rowErrors` its check's
 * messages as kept (with what each is about), else its answer's.
 */
export function uploadPage(
  upload: UploadAnswer,
  holder: PageHolder,
  errors: readonly PageError[] = [],
  rowErrors: readonly RowError[] = upload.errors,
): string {
  const common = { signedIn: holder, errors };
  switch (upload.status) {
    case 'pending':
      return page({
        ...common,
        ...progress(upload, 'Checking your file', 'Each row is checked as the API checks a new trainee.'),
      });
    case 'in_progress':
      return page({
        ...common,
        ...progress(upload, 'Adding trainees', `${upload.rows.length} of ${trainees(upload.row_count)} added so far.`),
      });
    case 'failed':
      return page({ ...common, title: 'Fix the errors in your file', main: errorsMain(upload, rowErrors, holder, errors) });
    case 'validated':
      return page({ ...common, title: `${trainees(upload.row_count)} will be added`, main: checkedMain(upload, holder) });
    case 'succeeded':
      return page({ ...common, title: 'Trainees added', main: resultMain(upload) });
    default:
      return page({
        ...common,
        title: 'Upload cancelled',
        main: html`<h1 class="govuk-heading-l">Upload cancelled</h1>
          <p class="govuk-body">${statusTag(upload.status)} No trainees were added from this file.</p>
          <p class="govuk-body"><a class="govuk-link" href="/uploads">Upload another file</a></p>`,
      });
  }
}

/** The result as CSV rows: `row`, `trainee_id`, `errors` (each row's messages, one a line). */
export function resultRows(upload: UploadAnswer): string[][] {
  return [
    ['row', 'trainee_id', 'errors'],
    ...upload.rows.map((r) =>
      'trainee_id' in r
        ? [String(r.row), r.trainee_id, '']
        : [String(r.row), '', r.errors.map((e) => personMessage(e, versionOf(upload))).join('\n')],
    ),
  ];
}
