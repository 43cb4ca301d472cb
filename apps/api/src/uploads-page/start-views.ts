/**
 * The uploads page's first pages: sign in, the start page (the template, the column guide, the
 * file to choose, the provider's uploads), and the pages of a refusal (403, 404, a problem).
 */
import type { UploadAnswer } from '@app/uploads/write';
import { html, type Html } from './html';
import { page, type PageError } from './layout';

/** The hidden field every form of the page carries: the session's CSRF token. */
export function csrfField(csrfToken: string): Html {
  return html`<input type="hidden" name="csrf_token" value="${csrfToken}" />`;
}

/** The message of the first error about `field`, written next to it (GOV.UK error message), or nothing. */
function fieldError(errors: readonly PageError[], field: string): Html | null {
  const error = errors.find((e) => e.field === field);
  return error
    ? html`<p id="${field}-error" class="govuk-error-message"><span class="govuk-visually-hidden">Error:</span> ${error.message}</p>`
    : null;
}

/** The sign-in page: the provider's API token, posted with the session's CSRF token. */
export function signInPage(csrfToken: string, errors: readonly PageError[] = []): string {
  const error = fieldError(errors, 'token');
  return page({
    title: 'Sign in',
    errors,
    main: html`<h1 class="govuk-heading-l">Sign in to add trainees from a file</h1>
      <form method="post" action="/uploads/sign-in" novalidate>
        ${csrfField(csrfToken)}
        <div class="govuk-form-group${error ? ' govuk-form-group--error' : ''}">
          <label class="govuk-label govuk-label--m" for="token">API token</label>
          <div id="token-hint" class="govuk-hint">The token your provider's systems use for the API.</div>
          ${error}
          <input
            class="govuk-input${error ? ' govuk-input--error' : ''}"
            id="token"
            name="token"
            type="password"
            autocomplete="off"
            spellcheck="false"
            aria-describedby="token-hint${error ? ' token-error' : ''}"
          />
        </div>
        <button type="submit" class="govuk-button" data-module="govuk-button">Sign in</button>
      </form>`,
  });
}

/** The GOV.UK tag of an upload's status: its words and colour. */
export function statusTag(status: string): Html {
  const [words, colour] = {
    pending: ['Checking', 'govuk-tag--blue'],
    validated: ['Ready to submit', 'govuk-tag--green'],
    failed: ['Has errors', 'govuk-tag--red'],
    in_progress: ['Adding trainees', 'govuk-tag--blue'],
    succeeded: ['Trainees added', 'govuk-tag--green'],
    cancelled: ['Cancelled', 'govuk-tag--grey'],
  }[status] ?? [status, 'govuk-tag--grey'];
  return html`<strong class="govuk-tag ${colour}">${words}</strong>`;
}

/** The form to choose and upload a file (a plain GOV.UK file upload input), with its error if any. */
export function uploadForm(csrfToken: string, errors: readonly PageError[], label: string): Html {
  const error = fieldError(errors, 'file');
  return html`<form method="post" action="/uploads/files" enctype="multipart/form-data" novalidate>
    ${csrfField(csrfToken)}
    <div class="govuk-form-group${error ? ' govuk-form-group--error' : ''}">
      <label class="govuk-label govuk-label--m" for="file">${label}</label>
      <div id="file-hint" class="govuk-hint">A CSV file saved as UTF-8, smaller than 1MB, with at most 1,000 trainees.</div>
      ${error}
      <input
        class="govuk-file-upload${error ? ' govuk-file-upload--error' : ''}"
        id="file"
        name="file"
        type="file"
        accept=".csv,text/csv"
        aria-describedby="file-hint${error ? ' file-error' : ''}"
      />
    </div>
    <button type="submit" class="govuk-button" data-module="govuk-button">Upload file</button>
  </form>`;
}

/** The provider's uploads, newest first: when received, status, rows, a link to each. */
function uploadsTable(uploads: readonly UploadAnswer[]): Html {
  if (uploads.length === 0) return html`<p class="govuk-body">You have not uploaded a file yet.</p>`;
  return html`<table class="govuk-table">
    <caption class="govuk-table__caption govuk-table__caption--m">
      Your uploads
    </caption>
    <thead class="govuk-table__head">
      <tr class="govuk-table__row">
        <th scope="col" class="govuk-table__header">Uploaded (UTC)</th>
        <th scope="col" class="govuk-table__header">Status</th>
        <th scope="col" class="govuk-table__header govuk-table__header--numeric">Trainees</th>
        <th scope="col" class="govuk-table__header"><span class="govuk-visually-hidden">Link</span></th>
      </tr>
    </thead>
    <tbody class="govuk-table__body">
      ${uploads.map(
        (u) =>
          html`<tr class="govuk-table__row">
            <td class="govuk-table__cell">${u.received_at.slice(0, 16).replace('T', ' ')}</td>
            <td class="govuk-table__cell">${statusTag(u.status)}</td>
            <td class="govuk-table__cell govuk-table__cell--numeric">${u.row_count}</td>
            <td class="govuk-table__cell"><a class="govuk-link" href="/uploads/files/${u.upload_id}">View upload</a></td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The start page: the template and the column guide to download, the file to upload, the provider's uploads. */
export function startPage(csrfToken: string, uploads: readonly UploadAnswer[], errors: readonly PageError[] = []): string {
  return page({
    title: 'Add trainees from a CSV file',
    errors,
    signOutCsrf: csrfToken,
    main: html`<h1 class="govuk-heading-l">Add trainees from a CSV file</h1>
      <h2 class="govuk-heading-m">Fill in the template</h2>
      <p class="govuk-body">One row for each new trainee, one column for each field of the API.</p>
      <ul class="govuk-list">
        <li><a class="govuk-link" href="/uploads/template.csv" download>Download the CSV template</a></li>
        <li>
          <a class="govuk-link" href="/uploads/column-guide.csv" download
            >Download the column guide (CSV): what each column means, its format and its codes</a
          >
        </li>
      </ul>
      ${uploadForm(csrfToken, errors, 'Upload your file')} ${uploadsTable(uploads)}`,
  });
}

/** A page saying what went wrong, in the template: 403 (a form without its token), 404, or a problem. */
export function messagePage(title: string, body: string, signOutCsrf: string | null = null): string {
  return page({
    title,
    signOutCsrf,
    main: html`<h1 class="govuk-heading-l">${title}</h1>
      <p class="govuk-body">${body}</p>
      <p class="govuk-body"><a class="govuk-link" href="/uploads">Go to the start page</a></p>`,
  });
}
