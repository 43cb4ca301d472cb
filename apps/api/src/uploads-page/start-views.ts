/**
 * The uploads page's first pages: sign in, the start page (the template, the column guide, the
 * file to choose, the provider's uploads), and the pages of a refusal (403, 404, a problem).
 */
import type { ApiVersion } from '@app/trainees/record';
import { recommendColumnFacts, type UploadAnswer } from '@app/uploads/write';
import { html, type Html } from './html';
import { page, type PageError, type PageHolder } from './layout';
import { ADD_TRAINEES, filesUrl, RECOMMENDATIONS, startUrl, type UploadJourney } from './upload-journeys';

/** The hidden field every form of the page carries: the session's CSRF token. */
export function csrfField(csrfToken: string): Html {
  return html`<input type="hidden" name="csrf_token" value="${csrfToken}" />`;
}

/** The message of the first error about `field`, written next to it (GOV.UK error message), or nothing. */
export function fieldError(errors: readonly PageError[], field: string): Html | null {
  const error = errors.find((e) => e.field === field);
  return error
    ? html`<p id="${field}-error" class="govuk-error-message"><span class="govuk-visually-hidden">Error:</span> ${error.message}</p>`
    : null;
}

/**
 * A GOV.UK form group of one input named `id`: its label, hint, error message when `errors` has one
 * about it, and the input (`inputClass`, with its `--error` variant; `attributes` written as given).
 */
function formField(id: string, label: string, hint: string, errors: readonly PageError[], inputClass: string, attributes: Html): Html {
  const error = fieldError(errors, id);
  const described = `${id}-hint${error ? ` ${id}-error` : ''}`;
  return html`<div class="govuk-form-group${error ? ' govuk-form-group--error' : ''}">
    <label class="govuk-label govuk-label--m" for="${id}">${label}</label>
    <div id="${id}-hint" class="govuk-hint">${hint}</div>
    ${error}
    <input
      class="${inputClass}${error ? ` ${inputClass}--error` : ''}"
      id="${id}"
      name="${id}"
      ${attributes}
      aria-describedby="${described}"
    />
  </div>`;
}

/** A GOV.UK table of `rows` under `headers`, with a caption. */
export function table(caption: string, headers: readonly string[], rows: readonly (readonly (string | number | Html)[])[]): Html {
  return html`<table class="govuk-table">
    <caption class="govuk-table__caption govuk-table__caption--m">
      ${caption}
    </caption>
    <thead class="govuk-table__head">
      <tr class="govuk-table__row">
        ${headers.map((h) => html`<th scope="col" class="govuk-table__header">${h}</th>`)}
      </tr>
    </thead>
    <tbody class="govuk-table__body">
      ${rows.map(
        (r) =>
          html`<tr class="govuk-table__row">
            ${r.map((c) => html`<td class="govuk-table__cell">${c}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** How one may sign in: with an account at the identity provider, and (the sandbox only) with the provider's API token. */
export interface SignInWays {
  person: boolean;
  token: boolean;
}

/**
 * The sign-in page: a start button to the identity provider; in the sandbox also the provider's API token, posted with the session's
 * CSRF token.
 */
export function signInPage(csrfToken: string, ways: SignInWays, errors: readonly PageError[] = []): string {
  const person = ways.person
    ? html`<p class="govuk-body">Sign in with your organisation’s account. You will come back here once signed in.</p>
        <a href="/uploads/sign-in" role="button" draggable="false" class="govuk-button govuk-button--start" data-module="govuk-button"
          >Sign in with your account</a
        >`
    : html`<p class="govuk-body">Signing in is not set up for this service yet. Ask the service’s operators.</p>`;
  const token = ways.token
    ? html`<h2 class="govuk-heading-m">Sandbox: sign in with an API token</h2>
        <form method="post" action="/uploads/sign-in" novalidate>
          ${csrfField(csrfToken)}
          ${formField(
            'token',
            'API token',
            "The token your provider's systems use for the API.",
            errors,
            'govuk-input',
            html`type="password" autocomplete="off" spellcheck="false"`,
          )}
          <button type="submit" class="govuk-button" data-module="govuk-button">Sign in</button>
        </form>`
    : html``;
  return page({
    title: 'Sign in',
    errors,
    place: { item: 'uploads', own: true },
    main: html`<h1 class="govuk-heading-l">Sign in to add trainees from a file</h1>
      ${person} ${token}`,
  });
}

/** The GOV.UK tag of an upload's status in `journey`: its words and colour (no modifier: GOV.UK Frontend's default, blue). */
export function statusTag(status: string, journey: UploadJourney = ADD_TRAINEES): Html {
  const [words, colour] = {
    pending: ['Checking', ''],
    validated: ['Ready to submit', 'govuk-tag--green'],
    failed: ['Has errors', 'govuk-tag--red'],
    in_progress: [journey.working, ''],
    succeeded: [journey.done, 'govuk-tag--green'],
    cancelled: ['Cancelled', 'govuk-tag--grey'],
  }[status] ?? [status, 'govuk-tag--grey'];
  return html`<strong class="${colour ? `govuk-tag ${colour}` : 'govuk-tag'}">${words}</strong>`;
}

/** The form to choose and upload a file (a plain GOV.UK file upload input) to `action`, with its error if any. */
export function uploadForm(csrfToken: string, errors: readonly PageError[], label: string, action = filesUrl(ADD_TRAINEES)): Html {
  return html`<form method="post" action="${action}" enctype="multipart/form-data" novalidate>
    ${csrfField(csrfToken)}
    ${formField(
      'file',
      label,
      'A CSV file saved as UTF-8, smaller than 1MB, with at most 1,000 trainees.',
      errors,
      'govuk-file-upload',
      html`type="file" accept=".csv,text/csv"`,
    )}
    <button type="submit" class="govuk-button" data-module="govuk-button">Upload file</button>
  </form>`;
}

/** Where a `viewer` would have a form: what their role lets them do. */
export function viewOnlyNote(): Html {
  return html`<div class="govuk-inset-text" id="view-only">
    Your role lets you see your provider’s uploads only. Someone with the uploader role can upload, submit or cancel a file.
  </div>`;
}

/**
 * The provider's uploads of `journey`, newest first, a GOV.UK summary card each: when received (UTC), status, rows, a link to it. Cards,
 * not a table: four columns reach past a 320 px screen.
 */
function uploadsTable(uploads: readonly UploadAnswer[], journey: UploadJourney): Html {
  if (uploads.length === 0) return html`<p class="govuk-body">You have not uploaded a file yet.</p>`;
  return html`<h2 class="govuk-heading-m">Your uploads</h2>
    ${uploads.map(
      (u) =>
        html`<div class="govuk-summary-card">
          <div class="govuk-summary-card__title-wrapper">
            <h3 class="govuk-summary-card__title">Uploaded ${u.received_at.slice(0, 16).replace('T', ' ')} (UTC)</h3>
            <ul class="govuk-summary-card__actions">
              <li class="govuk-summary-card__action">
                <a class="govuk-link" href="${filesUrl(journey)}/${u.upload_id}"
                  >View upload<span class="govuk-visually-hidden"> received ${u.received_at.slice(0, 16).replace('T', ' ')}</span></a
                >
              </li>
            </ul>
          </div>
          <div class="govuk-summary-card__content">
            <dl class="govuk-summary-list">
              <div class="govuk-summary-list__row">
                <dt class="govuk-summary-list__key">Status</dt>
                <dd class="govuk-summary-list__value">${statusTag(u.status, journey)}</dd>
              </div>
              <div class="govuk-summary-list__row">
                <dt class="govuk-summary-list__key">Rows</dt>
                <dd class="govuk-summary-list__value">${u.row_count}</dd>
              </div>
            </dl>
          </div>
        </div>`,
    )}`;
}

/** The start page: the template and the column guide to download, the file to upload (not for a viewer), the provider's uploads. */
export function startPage(holder: PageHolder, uploads: readonly UploadAnswer[], errors: readonly PageError[] = []): string {
  const { csrfToken } = holder;
  return page({
    title: 'Add trainees from a CSV file',
    errors,
    signedIn: holder,
    place: { item: 'uploads', own: true },
    main: html`<h1 class="govuk-heading-l">Add trainees from a CSV file</h1>
      <h2 class="govuk-heading-m">Fill in the template</h2>
      <p class="govuk-body">
        One row for each new trainee. The <a class="govuk-link" href="/uploads/columns">column guide</a> says which columns are required,
        what to type in each and what each code means.
      </p>
      <ul class="govuk-list">
        <li><a class="govuk-link" href="/uploads/template.csv" download>Download the CSV template</a></li>
        <li><a class="govuk-link" href="/uploads/example.csv" download>Download an example file with one trainee (CSV)</a></li>
        <li><a class="govuk-link" href="/uploads/column-guide.csv" download>Download the column guide (CSV)</a></li>
      </ul>
      ${holder.viewOnly ? viewOnlyNote() : uploadForm(csrfToken, errors, 'Upload your file')} ${uploadsTable(uploads, ADD_TRAINEES)}
      <p class="govuk-body">
        To recommend trainees for QTS or EYTS from a file, go to
        <a class="govuk-link" href="${startUrl(RECOMMENDATIONS)}">recommend trainees</a>.
      </p>`,
  });
}

/** The recommendations file's columns, a GOV.UK summary card each: what to type, whether required. */
function recommendColumns(version: ApiVersion): Html {
  return html`<h2 class="govuk-heading-m" id="columns">Column guide</h2>
    ${recommendColumnFacts(version).map(
      (f) =>
        html`<div class="govuk-summary-card">
          <div class="govuk-summary-card__title-wrapper">
            <h3 class="govuk-summary-card__title">
              ${f.label} <br /><span class="govuk-hint govuk-!-margin-bottom-0">Column: ${f.column}</span>
            </h3>
          </div>
          <div class="govuk-summary-card__content">
            <dl class="govuk-summary-list">
              <div class="govuk-summary-list__row">
                <dt class="govuk-summary-list__key">Required</dt>
                <dd class="govuk-summary-list__value">${f.needed}</dd>
              </div>
              <div class="govuk-summary-list__row">
                <dt class="govuk-summary-list__key">Format</dt>
                <dd class="govuk-summary-list__value">${f.format}${f.example ? `, for example ${f.example}` : ''}</dd>
              </div>
              <div class="govuk-summary-list__row">
                <dt class="govuk-summary-list__key">About</dt>
                <dd class="govuk-summary-list__value">${f.hint}</dd>
              </div>
            </dl>
          </div>
        </div>`,
    )}`;
}

/**
 * The recommendations' start page: the provider's recommendations template to download (a row for each trainee who can be
 * recommended, the date to fill in), the file to upload (not for a viewer), the columns, the provider's recommendation uploads.
 */
export function recommendStartPage(
  holder: PageHolder,
  uploads: readonly UploadAnswer[],
  version: ApiVersion,
  errors: readonly PageError[] = [],
): string {
  const journey = RECOMMENDATIONS;
  return page({
    title: 'Recommend trainees for QTS or EYTS',
    errors,
    signedIn: holder,
    place: { item: 'recommendations', own: true },
    main: html`<h1 class="govuk-heading-l">Recommend trainees for QTS or EYTS</h1>
      <h2 class="govuk-heading-m">Fill in your recommendations file</h2>
      <p class="govuk-body">
        The template has a row for each of your trainees who can be recommended. In the qts_standards_met_date column, type the date each
        trainee you recommend met the standards, as YYYY-MM-DD. Leave it blank for a trainee you are not recommending: their row is left
        out.
      </p>
      <ul class="govuk-list">
        <li><a class="govuk-link" href="${startUrl(journey)}/template.csv" download>Download your recommendations template (CSV)</a></li>
      </ul>
      ${holder.viewOnly ? viewOnlyNote() : uploadForm(holder.csrfToken, errors, 'Upload your recommendations file', filesUrl(journey))}
      ${uploadsTable(uploads, journey)} ${recommendColumns(version)}`,
  });
}

/** A page saying what went wrong, in the template: 403 (a form without its token), 404, or a problem. */
export function messagePage(title: string, body: string, signedIn: PageHolder | null = null): string {
  return page({
    title,
    signedIn,
    main: html`<h1 class="govuk-heading-l">${title}</h1>
      <p class="govuk-body">${body}</p>
      <p class="govuk-body"><a class="govuk-link" href="/uploads">Go to the start page</a></p>`,
  });
}
