/**
 * The column guide, made from each column's facts (`columnFacts`: the record tables' person words, kinds and code lists): as a page
 * in GOV.UK style, with a page of its own for each long code list, and as a CSV file; and the example file, the template's header
 * with one example trainee that passes every check.
 */
import type { ApiVersion } from '@app/trainees/record';
import { csvText } from '@app/uploads/csv';
import { addTraineeColumns, columnFacts, exampleRow, type ColumnFacts } from '@app/uploads/write';
import { html, type Html } from './html';
import { page, type PageHolder } from './layout';

/** Code lists written on the guide page itself; a longer list has a page of its own. */
const CODES_ON_PAGE = 20;

/** `code: meaning`, one a line. */
const codeLines = (facts: ColumnFacts): string => facts.codes.map((c) => `${c.code}: ${c.meaning}`).join('\n');

/** `column`, `label`, `required`, `format`, `example`, `codes` (`code: meaning`, one a line), by `csvText`. */
export function columnGuideCsv(version: ApiVersion): string {
  const rows = columnFacts(version).map((f) => [f.column, f.label, f.needed, f.format, f.example ?? '', codeLines(f)]);
  return csvText([['column', 'label', 'required', 'format', 'example', 'codes'], ...rows]);
}

/** The template's header and one example trainee, by `csvText`: a file that uploads as it is. */
export function exampleCsv(version: ApiVersion): string {
  const row = exampleRow(version);
  const columns = addTraineeColumns(version);
  return csvText([columns, columns.map((c) => row[c])]);
}

/** The codes of a column, on the guide or linked to their own page. */
function codesOf(facts: ColumnFacts): Html | null {
  if (facts.codes.length === 0) return null;
  if (facts.codes.length > CODES_ON_PAGE) {
    return html`<a class="govuk-link" href="/uploads/columns/${facts.column}"
      >See all ${facts.codes.length.toLocaleString('en-GB')} codes for ${facts.label}</a
    >`;
  }
  return html`<ul class="govuk-list">
    ${facts.codes.map((c) => html`<li><strong>${c.code}</strong> ${c.meaning}</li>`)}
  </ul>`;
}

/** A GOV.UK summary list row. */
const row = (key: string, value: Html | string | null): Html | null =>
  value === null || value === ''
    ? null
    : html`<div class="govuk-summary-list__row">
        <dt class="govuk-summary-list__key">${key}</dt>
        <dd class="govuk-summary-list__value">${value}</dd>
      </div>`;

/** One column as a GOV.UK summary card: its label and header, whether it is required, its format, an example, its codes. */
function columnCard(facts: ColumnFacts): Html {
  return html`<div class="govuk-summary-card" id="${facts.column}">
    <div class="govuk-summary-card__title-wrapper">
      <h2 class="govuk-summary-card__title">
        ${facts.label} <br /><span class="govuk-hint govuk-!-margin-bottom-0">Column: ${facts.column}</span>
      </h2>
    </div>
    <div class="govuk-summary-card__content">
      <dl class="govuk-summary-list">
        ${row('Required', facts.needed)} ${row('Format', facts.format)} ${row('Example', facts.example)} ${row('About', facts.hint)}
        ${row('Codes', codesOf(facts))}
      </dl>
    </div>
  </div>`;
}

/** The column guide page: how to fill in the file, then every column in template order. */
export function columnGuidePage(version: ApiVersion, signedIn: PageHolder): string {
  return page({
    title: 'Column guide',
    signedIn,
    place: { item: 'uploads', own: false },
    main: html`<h1 class="govuk-heading-l">Column guide</h1>
      <p class="govuk-body">
        Each row of your file is one new trainee. Fill in each required column; leave an optional column blank when it does not apply. Type
        codes exactly as listed, with their leading zeros: a spreadsheet may remove them (01 becomes 1) or turn dates into another format,
        so format the columns as text before you type.
      </p>
      <ul class="govuk-list">
        <li><a class="govuk-link" href="/uploads/example.csv" download>Download an example file with one trainee (CSV)</a></li>
        <li><a class="govuk-link" href="/uploads/column-guide.csv" download>Download this guide (CSV)</a></li>
      </ul>
      ${columnFacts(version).map(columnCard)}`,
  });
}

/** The page of one column's codes, or null for a column with no long list. */
export function columnCodesPage(version: ApiVersion, column: string, signedIn: PageHolder): string | null {
  const facts = columnFacts(version).find((f) => f.column === column);
  if (!facts || facts.codes.length <= CODES_ON_PAGE) return null;
  const title = `Codes for ${facts.label}`;
  return page({
    title,
    signedIn,
    place: { item: 'uploads', own: false },
    main: html`<h1 class="govuk-heading-l">${title}</h1>
      <p class="govuk-body">Type the code in the ${facts.column} column, with its leading zeros.</p>
      <p class="govuk-body"><a class="govuk-link" href="/uploads/columns#${facts.column}">Back to the column guide</a></p>
      <dl class="govuk-summary-list">${facts.codes.map((c) => row(c.code, c.meaning))}</dl>`,
  });
}
