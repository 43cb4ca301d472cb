import { evolveAll, TRAINEE_EVENT_TYPES } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import type { Trainee } from '@app/trainees/record';
import { STATUS_FILTERS } from '@app/trainees/read';
import { columnFacts } from '@app/uploads/write';
import { traineeListHref, traineeListRequest } from './trainee-list-request';
import { pageNumbers, traineeCount } from './trainee-list-views';
import { recordSections, valueWords } from './trainee-page-views';
import { codeWords, eventWords, personDate, personInstant, traineeStatusTag } from './trainee-words';

const TODAY = '2026-12-07';

/** The example trainee as registered and submitted (libs/trainees/decider/testing). */
function exampleTrainee(): Trainee {
  const state = evolveAll(exampleRegistration());
  if (!state.exists) throw new Error('the example registration registers no trainee');
  return state.trainee;
}

describe('the list of trainees: its request', () => {
  it('defaults to the academic year holding today, no status, no search, the first page', () => {
    expect(traineeListRequest({}, TODAY)).toEqual({ request: { cycle: 2026, statuses: [], search: '', words: [], page: 1 }, errors: [] });
    expect(traineeListRequest({ cycle: '', search: '', page: '', status: '' }, '2026-07-31').request.cycle).toBe(2025);
  });

  it('reads the year, the statuses (in the list’s order, once each), the search and the page', () => {
    const { request, errors } = traineeListRequest(
      { cycle: '2024', status: ['withdrawn', 'in_training', 'withdrawn'], search: '  Ada  Quill ', page: '3', other: 'x' },
      TODAY,
    );
    expect(errors).toEqual([]);
    expect(request).toEqual({
      cycle: 2024,
      statuses: ['in_training', 'withdrawn'],
      search: 'Ada  Quill',
      words: ['ada', 'quill'],
      page: 3,
    });
  });

  it.each([
    [{ search: 'x'.repeat(101) }, 'search', 'Search must be 100 characters or fewer'],
    [{ search: 'a b c d e f' }, 'search', 'Search for 5 words or fewer'],
    [{ search: ['a', 'b'] }, 'search', 'Enter one search'],
    [{ cycle: '2008' }, 'cycle', 'Select an academic year from the list'],
    [{ cycle: '2031' }, 'cycle', 'Select an academic year from the list'],
    [{ cycle: '2025/26' }, 'cycle', 'Select an academic year from the list'],
    [{ cycle: ['2025', '2026'] }, 'cycle', 'Select an academic year from the list'],
    [{ status: 'draft' }, 'status', 'Select statuses from the list'],
    [{ status: [...STATUS_FILTERS, 'deferred'] }, 'status', 'Select statuses from the list'],
    [{ page: '0' }, 'results', 'Page must be a whole number from 1 to 10,000'],
    [{ page: '10001' }, 'results', 'Page must be a whole number from 1 to 10,000'],
    [{ page: '2.5' }, 'results', 'Page must be a whole number from 1 to 10,000'],
    [{ page: ['1', '2'] }, 'results', 'Page must be a whole number from 1 to 10,000'],
  ])('refuses %j, naming the field', (raw, field, message) => {
    expect(traineeListRequest(raw, TODAY).errors).toEqual([{ field, message }]);
  });

  it('keeps 100 characters and 5 words, and the last page of the bound', () => {
    expect(traineeListRequest({ search: `${'x'.repeat(92)} a b c d`, page: '10000' }, TODAY).errors).toEqual([]);
  });

  it('writes the list’s address with only what differs from the defaults', () => {
    const { request } = traineeListRequest({}, TODAY);
    expect(traineeListHref(request, TODAY)).toBe('/uploads/trainees');
    expect(
      traineeListHref({ ...request, cycle: 2025, statuses: ['deferred', 'withdrawn'], search: 'O’Brien & co' }, TODAY, { page: 2 }),
    ).toBe('/uploads/trainees?search=O%E2%80%99Brien+%26+co&cycle=2025&status=deferred&status=withdrawn&page=2');
  });
});

describe('the list of trainees: its words and pages', () => {
  it('counts trainees', () => {
    expect([traineeCount(0), traineeCount(1), traineeCount(1200)]).toEqual(['0 trainees', '1 trainee', '1,200 trainees']);
  });

  it('shows the first, the last, the current page and its neighbours, ellipses between', () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(1, 2)).toEqual([1, 2]);
    expect(pageNumbers(1, 10)).toEqual([1, 2, null, 10]);
    expect(pageNumbers(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageNumbers(3, 10)).toEqual([1, 2, 3, 4, null, 10]);
    expect(pageNumbers(10, 10)).toEqual([1, null, 9, 10]);
  });

  it('tags a trainee with the list status it is found by, in its code list’s words', () => {
    const trainee = exampleTrainee();
    expect(traineeStatusTag({ ...trainee, state: 'deferred' }, TODAY).text).toBe(
      '<strong class="govuk-tag govuk-tag--yellow">Deferred</strong>',
    );
    expect(traineeStatusTag({ ...trainee, state: 'awarded' }, TODAY).text).toContain('>Holds QTS/EYTS<');
    expect(traineeStatusTag({ ...trainee, state: 'trn_received' }, TODAY).text).toBe('<strong class="govuk-tag">In training</strong>');
    const later = { ...trainee, details: { ...trainee.details, itt_start_date: '2027-01-11' } };
    expect(traineeStatusTag(later, TODAY).text).toContain('>Course not started yet<');
    expect(traineeStatusTag({ ...later, state: 'draft' }, TODAY).text).toBe('<strong class="govuk-tag govuk-tag--grey">Draft</strong>');
  });
});

describe("a trainee's page: its words", () => {
  it('writes dates and instants as GOV.UK does, anything else as it is', () => {
    expect([personDate('2025-08-01'), personDate('1991-12-31'), personDate('2025-13-01'), personDate('soon')]).toEqual([
      '1 August 2025',
      '31 December 1991',
      '2025-13-01',
      'soon',
    ]);
    expect(personInstant('2026-01-05T00:05:00.000Z')).toBe('5 January 2026 at 12:05am UTC');
    expect(personInstant('2026-01-05T12:00:00.000Z')).toBe('5 January 2026 at 12:00pm UTC');
    expect(personInstant('2026-01-05T14:30:59.999Z')).toBe('5 January 2026 at 2:30pm UTC');
    expect(personInstant('2026-01-05T14:30:00+01:00')).toBe('2026-01-05T14:30:00+01:00');
  });

  it('gives a code its meaning, and a value its kind’s words', () => {
    expect(codeWords('sex', '11')).toBe('Male (11)');
    expect(codeWords('sex', '77')).toBe('77');
    expect(valueWords({ kind: 'date', list: null }, '1990-01-01')).toBe('1 January 1990');
    expect(valueWords({ kind: 'code', list: 'sex' }, '10')).toBe('Female (10)');
    expect(valueWords({ kind: 'digits', list: null }, 6916785)).toBe('6916785');
    expect([valueWords({ kind: 'text', list: null }, null), valueWords({ kind: 'text', list: null }, '')]).toEqual([null, null]);
  });

  it('words every event type a trainee’s stream holds', () => {
    for (const type of TRAINEE_EVENT_TYPES) expect([type, eventWords(type)]).not.toEqual([type, type]);
    expect(eventWords('SomethingNew')).toBe('SomethingNew');
  });

  it('shows every field of the record a file takes but a placement’s and a degree’s, once, labelled as the column guide labels it', () => {
    const trainee = exampleTrainee();
    const sections = recordSections(trainee, 'v2026.1');
    const labels = sections.flatMap((s) => s.rows.map(([label]) => label));
    const expected = columnFacts('v2026.1')
      .filter((f) => !/^(degree_|placement_|disability)/.test(f.column))
      .map((f) => f.label);
    expect([...labels].sort()).toEqual([...expected, 'Disabilities'].sort());
    expect(sections.map((s) => s.title)).toEqual([
      'Personal details',
      'Nationality and diversity',
      'Course',
      'Funding',
      'Schools and partners',
      'Other details',
    ]);
    const rows = Object.fromEntries(sections.flatMap((s) => s.rows));
    expect(rows).toMatchObject({ 'First names': 'John', 'Last name': 'Doe', 'Date of birth': '1 January 1990', Sex: 'Male (11)' });
    expect(rows.Disabilities).toMatch(/^.+ \(58\), .+ \(57\)$/);
    expect(rows['National Insurance number']).toBeNull();
  });
});
