/**
 * The uploads page's words for a person: each row error worded from what it is about (the column's label, the format wanted with
 * an example, a code's meaning), on the page and in its errors file, while the API answers the same upload with its own messages;
 * values a spreadsheet mangles named as such; the column guide and the example file made from the record tables.
 */
import { RunningApi } from '../support/api-harness';
import { PageClient } from '../support/page-client';
import { csvFile, traineeRows } from '../support/upload-files';
import { parse } from 'csv-parse/sync';
import { parseUploadCsv } from '@app/uploads/csv';
import { addTraineeColumns } from '@app/uploads/write';

const A = '10000491';
const V = 'v2026.1';

/** The page's error cards: each row's errors as [row, column label, header, words]. */
function errorCards(text: string): [string, string, string, string][] {
  const cards = [...text.matchAll(/<h3 class="govuk-summary-card__title">Row (\d+)<\/h3>([\s\S]*?)<\/dl>/g)];
  return cards.flatMap(([, row, body]) =>
    [
      ...body.matchAll(
        /<dt class="govuk-summary-list__key">\s*([^<]*?)\s*(?:<br \/><span class="govuk-hint[^"]*">Column: ([^<]*)<\/span>)?\s*<\/dt>\s*<dd class="govuk-summary-list__value">([^<]*)<\/dd>/g,
      ),
    ].map(([, label, header, words]): [string, string, string, string] => [row, label, header ?? '', unescape(words)]),
  );
}

const unescape = (s: string) =>
  s
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('the uploads page in words for a person', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(A);
  });
  afterAll(() => api.close());

  it('words each row error for a person on the page and in the errors file; the API answers its own messages', async () => {
    const c = new PageClient(api.baseUrl);
    await c.signIn(token);
    await c.get('/uploads');
    const changes: Record<string, string>[] = [
      { date_of_birth: '27/04/1998' },
      { sex: 'Female' },
      { sex: '77' },
      { email: 'not an address' },
      { degree_grade: '1' },
      { degree_institution: '124' },
      { first_names: '' },
      { fund_code: '7', funding_method: 'E' },
    ];
    const rows = traineeRows(V, changes.length).map((r, i) => ({ ...r, ...changes[i] }));
    const sent = await c.upload(csvFile(V, rows));
    const location = sent.headers.get('location')!;
    const page = await c.settled(location);
    const words: [string, string, string, string][] = [
      [
        '2',
        'Date of birth',
        'date_of_birth',
        'Enter date of birth in the format YYYY-MM-DD, for example 1998-04-27: a spreadsheet may have changed 1998-04-27 to 27/04/1998',
      ],
      ['3', 'Sex', 'sex', 'Enter sex as a code, not its name: 10 for Female'],
      [
        '4',
        'Sex',
        'sex',
        'Enter sex as one of the codes 10 (Female), 11 (Male), 12 (Other), 96 (Information refused) or 99 (Not available)',
      ],
      ['5', 'Email address', 'email', 'Enter email address in the correct format, like name@example.com'],
      [
        '6',
        'Degree grade',
        'degree_grade',
        'Degree grade 1 is not a code: a spreadsheet may have removed its leading zeros. ' +
          'Enter 01 (First Class Honours) and format the column as text so the zeros stay',
      ],
      [
        '7',
        'Degree institution',
        'degree_institution',
        'Degree institution 124 is not a code: a spreadsheet may have removed its leading zeros. ' +
          'Enter 0124 (The University of Leeds) and format the column as text so the zeros stay',
      ],
      ['8', 'First names', 'first_names', 'Enter first names'],
      [
        '9',
        'Funding method',
        'funding_method',
        'Funding method E (Grant) is not available for training route 11 (Primary and Secondary Undergraduate Fee Funded) and ' +
          'course subject 1 100346 (Biology) in academic year 2025 to 2026. Check the funding method, training route and course subject 1',
      ],
    ];
    expect(errorCards(page.text)).toEqual(words);
    expect(page.text).not.toContain('govuk-table');

    // The errors file: each row's words in its errors column, and it reads back as the rows sent.
    const file = await c.get(`${location}/errors.csv`);
    const [header, ...records] = parse(file.text, { bom: true }) as string[][];
    expect(header).toEqual([...addTraineeColumns(V), 'errors']);
    expect(records.map((r, i) => [String(i + 2), r[r.length - 1]])).toEqual(words.map(([row, , , w]) => [row, w]));
    expect(records.map((r) => r[header.indexOf('degree_institution')])).toEqual(rows.map((r) => r.degree_institution));

    // The API answers the same upload with its own messages, and nothing of the page's.
    const answer = await api.request('GET', `/api/${V}/trainee-uploads/${location.split('/').pop()}`, token);
    expect(answer.body.data.errors).toEqual([
      { row: 2, column: 'date_of_birth', message: 'date_of_birth is invalid' },
      {
        row: 3,
        column: 'sex',
        message: "sex has invalid reference data value of 'Female'. Valid values are '10', '11', '12', '96', '99'.",
      },
      { row: 4, column: 'sex', message: "sex has invalid reference data value of '77'. Valid values are '10', '11', '12', '96', '99'." },
      { row: 5, column: 'email', message: 'email Enter an email address in the correct format, like name@example.com' },
      {
        row: 6,
        column: 'degree_grade',
        message: "degree_grade has invalid reference data value of '1': a spreadsheet may have dropped the leading zeros of '01'",
      },
      {
        row: 7,
        column: 'degree_institution',
        message: "degree_institution has invalid reference data value of '124': a spreadsheet may have dropped the leading zeros of '0124'",
      },
      { row: 8, column: 'first_names', message: "first_names can't be blank" },
      {
        row: 9,
        column: 'funding_method',
        message:
          "funding_method 'grant' is not allowed when training_route is 'provider_led_undergrad' and course_subject_1 is 'biology' " +
          "in academic cycle '2025 to 2026'",
      },
    ]);
  });

  it('serves the column guide as a page and as CSV, and an example file that uploads as it is', async () => {
    const c = new PageClient(api.baseUrl);
    expect((await c.get('/uploads/columns')).status).toBe(303);
    await c.signIn(token);
    const start = await c.get('/uploads');
    expect(start.text).toContain('<a class="govuk-link" href="/uploads/columns">column guide</a>');

    const guide = await c.get('/uploads/columns');
    expect(guide.status).toBe(200);
    const cards = [...guide.text.matchAll(/<div class="govuk-summary-card" id="(\w+)">([\s\S]*?)<\/dl>/g)];
    expect(cards.map((m) => m[1])).toEqual(addTraineeColumns(V));
    const card = (column: string) => cards.find((m) => m[1] === column)![2].replace(/\s+/g, ' ');
    expect(card('date_of_birth')).toMatch(/Date of birth.*Required.*A date in the format YYYY-MM-DD.*1998-04-27/);
    expect(card('middle_names')).toMatch(/Optional.*Text, up to 60 characters/);
    expect(card('sex')).toContain('<li><strong>10</strong> Female</li>');
    expect(card('disability4')).toMatch(/Disability 4.*Optional.*<strong>58<\/strong>/);
    expect(card('degree_uk_degree')).toMatch(/UK degree type.*Required for a UK degree.*href="\/uploads\/columns\/degree_uk_degree"/);
    expect(guide.text).not.toMatch(/JSON|a string|an integer/);

    const types = await c.get('/uploads/columns/degree_uk_degree');
    expect(types.text).toMatch(/<dt class="govuk-summary-list__key">083<\/dt>\s*<dd class="govuk-summary-list__value">[^<]+<\/dd>/);
    expect((await c.get('/uploads/columns/sex')).status).toBe(404);

    const csv = await c.get('/uploads/column-guide.csv');
    const read = await parseUploadCsv(Buffer.from(csv.text), {
      columns: ['column', 'label', 'required', 'format', 'example', 'codes'],
      maxBytes: 2 ** 22,
      maxRows: 100,
    });
    expect(read.records.map((r) => r.values.column)).toEqual(addTraineeColumns(V));
    const byColumn = new Map(read.records.map((r) => [r.values.column, r.values]));
    expect(byColumn.get('sex')).toMatchObject({
      label: 'Sex',
      required: 'Required',
      codes: expect.stringMatching(/^10: Female\n11: Male/),
    });
    expect(byColumn.get('disability9')?.codes).toMatch(/^51: /);
    expect(byColumn.get('degree_uk_degree')?.codes).toMatch(/^\d{3}: /m);
    expect(csv.text).not.toMatch(/JSON number/);

    const example = await c.get('/uploads/example.csv');
    const sent = await c.upload(example.text);
    const checked = await c.settled(sent.headers.get('location')!);
    expect(checked.text).toContain('1 trainee will be added');
  });
});
