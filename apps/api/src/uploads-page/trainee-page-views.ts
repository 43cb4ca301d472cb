/**
 * A trainee's page (`GET /uploads/trainees/:id`): the record read-only as GOV.UK summary cards, labelled in a person's words from the
 * record tables (each input's `person` label through `columnFacts` and `itemFacts`, each lifecycle field's `label`), its placements and
 * degrees, and its history, a page of its events with what each did.
 */
import { LIFECYCLE_FIELDS, WITHDRAWAL_REASONS, lifecycleAnswerOf, type LifecycleField, type RefListName } from '@app/trainees/record';
import type { TimelineEntry, TimelinePage } from '@app/trainees/read';
import type { ApiVersion, Trainee } from '@app/trainees/record';
import { columnFacts, itemFacts, type ColumnFacts } from '@app/uploads/write';
import { html, type Html } from './html';
import { page, type PageHolder } from './layout';
import { codeWords, eventWords, personDate, personInstant, stateWords, traineeName, traineeStatusTag } from './trainee-words';

/** A summary list's row; a value never given shows as "Not entered". */
function row(key: string, value: Html | string | null): Html {
  return html`<div class="govuk-summary-list__row">
    <dt class="govuk-summary-list__key">${key}</dt>
    <dd class="govuk-summary-list__value">
      ${value === null || value === '' ? html`<span class="govuk-hint govuk-!-margin-bottom-0">Not entered</span>` : value}
    </dd>
  </div>`;
}

/** A GOV.UK summary card titled `title` (a heading of `level`) holding `rows`. */
function card(title: string, rows: readonly Html[], level: 2 | 3 = 2): Html {
  const heading =
    level === 2 ? html`<h2 class="govuk-summary-card__title">${title}</h2>` : html`<h3 class="govuk-summary-card__title">${title}</h3>`;
  return html`<div class="govuk-summary-card">
    <div class="govuk-summary-card__title-wrapper">${heading}</div>
    <div class="govuk-summary-card__content"><dl class="govuk-summary-list">${rows}</dl></div>
  </div>`;
}

/** A stored value as a person reads it: a date written out, a code with its meaning, anything else as text; null for none. */
export function valueWords(facts: Pick<ColumnFacts, 'kind' | 'list'>, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  if (facts.kind === 'date' || facts.kind === 'lenient_date') return personDate(text);
  return facts.list ? codeWords(facts.list, text) : text;
}

/** The record's cards and the fields of each (canonical names), in the order a person reads them; a field of none goes to the last. */
const SECTIONS: readonly (readonly [string, readonly string[]])[] = [
  [
    'Personal details',
    ['provider_trainee_id', 'first_names', 'middle_names', 'last_name', 'previous_last_name', 'date_of_birth', 'sex', 'email'],
  ],
  ['Nationality and diversity', ['nationality', 'ni_number', 'ethnicity', 'disabilities']],
  [
    'Course',
    [
      'training_route',
      'course_subject_1',
      'course_subject_2',
      'course_subject_3',
      'course_age_range',
      'study_mode',
      'course_year',
      'itt_start_date',
      'itt_end_date',
      'trainee_start_date',
      'pg_apprenticeship_start_date',
      'itt_aim',
      'itt_qualification_aim',
      'iqts_country',
    ],
  ],
  ['Funding', ['training_initiative', 'additional_training_initiative', 'fund_code', 'funding_method']],
  ['Schools and partners', ['employing_school_urn', 'training_partner_ukprn', 'training_partner_urn']],
];
const OTHER_SECTION = 'Other details';

/**
 * The trainee's own fields by card: each field a file takes, labelled as the column guide labels it, the disabilities as one row of
 * those given. Every field of `columnFacts` but a placement's and a degree's is in one card.
 */
export function recordSections(trainee: Trainee, version: ApiVersion): { title: string; rows: [string, string | null][] }[] {
  const details = trainee.details as unknown as Readonly<Record<string, unknown>>;
  const own = columnFacts(version).filter((f) => !/^(degree_|placement_)/.test(f.column));
  const rowsOf = (facts: readonly ColumnFacts[]): [string, string | null][] => {
    const rows: [string, string | null][] = facts
      .filter((f) => f.field !== 'disabilities')
      .map((f) => [f.label, valueWords(f, details[f.field])]);
    const disabilities = facts.filter((f) => f.field === 'disabilities');
    if (disabilities.length > 0) {
      const given = disabilities.flatMap((f) => valueWords(f, (trainee.details.disabilities as Record<string, unknown>)[f.column]) ?? []);
      rows.push(['Disabilities', given.length > 0 ? given.join(', ') : null]);
    }
    return rows;
  };
  const listed = new Set(SECTIONS.flatMap(([, fields]) => fields));
  const sections = SECTIONS.map(([title, fields]) => ({
    title,
    rows: rowsOf(fields.flatMap((name) => own.filter((f) => f.field === name))),
  }));
  const rest = own.filter((f) => !listed.has(f.field));
  return rest.length > 0 ? [...sections, { title: OTHER_SECTION, rows: rowsOf(rest) }] : sections;
}

/** A lifecycle field's value as a person reads it: dates written out, codes with their meanings, reasons by their words. */
function lifecycleWords(field: LifecycleField, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const kind = field.input.kind;
  if (kind.kind === 'date' || kind.kind === 'date_or_date_time') return personDate(String(value));
  if (kind.kind === 'listed') return codeWords(kind.list as RefListName, String(value));
  if (kind.kind === 'reasons' && Array.isArray(value)) {
    return value.map((code) => WITHDRAWAL_REASONS.find((r) => r.code === code)?.label ?? String(code)).join(', ');
  }
  return String(value);
}

/** Where the trainee stands: status, state, TRN, ids, when it was added and changed, and what each lifecycle action recorded. */
function statusRows(trainee: Trainee, today: string): Html[] {
  const when = (instant: string | null) => (instant ? personInstant(instant) : null);
  const lifecycle = Object.values(LIFECYCLE_FIELDS)
    .flat()
    .flatMap((f) => {
      const words = lifecycleWords(f, lifecycleAnswerOf(f.name)?.(trainee));
      return words === null ? [] : [row(f.input.label, words)];
    });
  return [
    row('Status', traineeStatusTag(trainee, today)),
    row('Record state', stateWords(trainee.state)),
    row('TRN', trainee.trn ?? 'Not yet'),
    row('Trainee ID', trainee.trainee_id),
    row('Added through', trainee.record_source === 'csv' ? 'A file uploaded here' : 'Your system, through the API'),
    row('Added', when(trainee.created_at)),
    row('Last changed', when(trainee.updated_at)),
    ...(trainee.submitted_for_trn_at ? [row('Submitted for a TRN', when(trainee.submitted_for_trn_at))] : []),
    ...(trainee.recommended_for_award_at ? [row('Recommended for QTS or EYTS', when(trainee.recommended_for_award_at))] : []),
    ...(trainee.awarded_at ? [row('QTS or EYTS awarded', when(trainee.awarded_at))] : []),
    ...(trainee.reinstate_date ? [row('Date reinstated', personDate(trainee.reinstate_date))] : []),
    ...lifecycle,
  ];
}

/** Each item (a placement or a degree) as a card of the fields its table takes, `Placement 1`, `Degree 1`…; a sentence for none. */
function itemCards(kind: 'placements' | 'degrees', items: readonly object[], version: ApiVersion): Html {
  const noun = kind === 'placements' ? 'Placement' : 'Degree';
  if (items.length === 0) return html`<p class="govuk-body">No ${kind}.</p>`;
  const facts = itemFacts(kind, version);
  return html`${items.map((item, i) => {
    const values = item as Readonly<Record<string, unknown>>;
    return card(
      `${noun} ${i + 1}`,
      facts.map((f) => row(f.label, valueWords(f, values[f.field]))),
      3,
    );
  })}`;
}

/** The labels of the fields an update changed, as the record's cards name them. */
function changedWords(entry: TimelineEntry, version: ApiVersion): string | null {
  if (entry.event_type !== 'TraineeUpdated' || entry.changed_fields.length === 0) return null;
  const labels = entry.changed_fields.map((name) => {
    const facts = columnFacts(version).find((f) => f.field === name && !/^(degree_|placement_)/.test(f.column));
    return facts ? (facts.field === 'disabilities' ? 'Disabilities' : facts.label) : name.replace(/_/g, ' ');
  });
  return [...new Set(labels)].join(', ');
}

/** The history's page: each event's date and what it did, oldest first; a link to the next page when there is one. */
function historyList(trainee: Trainee, history: TimelinePage, version: ApiVersion): Html {
  const rows = history.entries.map((e) => {
    const changed = changedWords(e, version);
    return row(
      e.occurred_at ? personInstant(e.occurred_at) : 'Unknown date',
      html`${eventWords(e.event_type)}${changed ? html`<br /><span class="govuk-hint govuk-!-margin-bottom-0">Changed: ${changed}</span>` : null}`,
    );
  });
  const next = `/uploads/trainees/${encodeURIComponent(trainee.trainee_id)}?history_from=${history.next.revision}&history_state=${history.next.status}#history`;
  return html`<dl class="govuk-summary-list">${rows}</dl>
    ${history.hasMore ? html`<p class="govuk-body"><a class="govuk-link" href="${next}">Show later changes</a></p>` : null}`;
}

/** The trainee's page for `holder`: status, the record's cards, placements, degrees, and a page of its history (oldest first). */
export function traineePage(holder: PageHolder, trainee: Trainee, history: TimelinePage, version: ApiVersion, today: string): string {
  const name = traineeName(trainee);
  return page({
    title: name,
    signedIn: holder,
    place: { item: 'trainees', own: false },
    main: html`<a href="/uploads/trainees" class="govuk-back-link">Back to your trainees</a>
      <span class="govuk-caption-l">Trainee</span>
      <h1 class="govuk-heading-l">${name}</h1>
      ${card('Status', statusRows(trainee, today))}
      ${recordSections(trainee, version).map((s) =>
        card(
          s.title,
          s.rows.map(([k, v]) => row(k, v)),
        ),
      )}
      <h2 class="govuk-heading-m">Placements</h2>
      ${itemCards('placements', trainee.placements, version)}
      <h2 class="govuk-heading-m">Degrees</h2>
      ${itemCards('degrees', trainee.degrees, version)}
      <h2 class="govuk-heading-m" id="history">History</h2>
      <p class="govuk-body">Each change to this record, oldest first.</p>
      ${historyList(trainee, history, version)}`,
  });
}
