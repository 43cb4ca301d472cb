import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { csvRecord, csvText, escapeCell, unescapeCell, type CsvValue } from './csv-cells';
import { writeUploadCsv } from './upload-csv';
import { parseUploadCsv } from './upload-csv-read';

/** The RFC 4180 writer the service had before `csv-stringify`: what a cell needing no escape must still come out as. */
function rfc4180(values: readonly CsvValue[]): string {
  const field = (v: CsvValue) => {
    const text = v === null || v === undefined ? '' : String(v);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `${values.map(field).join(',')}\r\n`;
}

/** The rule as a list: quotes, then a control character, or spaces and a formula character in any of its forms. */
const FORMULA_LIKE = /^'*(?:[\t\r\n\0]|\s*[=+\-@＝＋－＠﹦﹢﹣﹫⁼⁺₊₌⩵⩶﬩])/u;

/** Text often starting as a formula would, in any of its forms, or with quotes or spaces before one. */
const text = fc
  .tuple(
    fc.constantFrom(
      '',
      "'",
      "''",
      '=',
      '+',
      '-',
      '@',
      '\t',
      '\r',
      '\n',
      "'=",
      ' =',
      '\u3000＋',
      '＝',
      '＋',
      '－',
      '＠',
      '﹦',
      '⁺',
      'a',
      '1',
    ),
    fc.fullUnicodeString({ maxLength: 10 }),
  )
  .map(([start, rest]) => start + rest);

describe('escapeCell and unescapeCell', () => {
  it('escape exactly the cells a spreadsheet could run, and unescaping gives the value back', () => {
    fc.assert(
      fc.property(text, (value) => {
        const cell = escapeCell(value);
        expect(unescapeCell(cell)).toBe(value);
        expect(cell === value).toBe(!FORMULA_LIKE.test(value));
        expect(FORMULA_LIKE.test(cell) && !cell.startsWith("'")).toBe(false);
      }),
    );
  });

  it.each([
    ['=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'],
    ['＝1+1', "'＝1+1"],
    ['＋44 20', "'＋44 20"],
    ['－5', "'－5"],
    ['＠SUM(A1)', "'＠SUM(A1)"],
    ['﹦1', "'﹦1"],
    ['  =1', "'  =1"],
    ['\n=1', "'\n=1"],
    ['-5', "'-5"],
    ["'=1", "''=1"],
    ["O'Neill", "O'Neill"],
    ['a=b', 'a=b'],
    ['−5', '−5'],
  ])('write %j as %j', (value, cell) => {
    expect(escapeCell(value)).toBe(cell);
    expect(unescapeCell(cell)).toBe(value);
  });
});

describe('csvText', () => {
  it('writes what the RFC 4180 writer it replaced wrote, for values that need no escape', () => {
    const plain = fc.oneof(
      text.filter((s) => !FORMULA_LIKE.test(s)),
      fc.integer({ min: 0 }),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(fc.array(fc.array(plain, { maxLength: 6 }), { maxLength: 5 }), (records) => {
        expect(csvText(records)).toBe(records.map(rfc4180).join(''));
      }),
    );
    expect(csvRecord(['a,b', 'say "hi"', 'two\nlines', 'cr\r', '', null, 3, false])).toBe(
      '"a,b","say ""hi""","two\nlines","cr\r",,,3,false\r\n',
    );
  });

  it('writes a number as a number, negative or not, and its text escaped', () => {
    expect(csvRecord([-5, '-5', 1.5e-7, 2025])).toBe("-5,'-5,1.5e-7,2025\r\n");
  });

  it('escapes inside quotes too, and reads back with csv-parse to the escaped cells', () => {
    const written = csvText([['=HYPERLINK("http://x")', '＝1+1', 'plain']], { bom: true });
    expect(written).toBe('\uFEFF"\'=HYPERLINK(""http://x"")",\'＝1+1,plain\r\n');
    expect(parse(written, { bom: true })).toEqual([['\'=HYPERLINK("http://x")', "'＝1+1", 'plain']]);
  });

  it('writes no records as nothing', () => {
    expect(csvText([])).toBe('');
    expect(csvText([], { bom: true })).toBe('\uFEFF');
  });
});

describe('a file with its errors, uploaded again', () => {
  it('reads the values it was written from, formula-looking ones included', async () => {
    const columns = ['provider_trainee_id', 'first_names', 'last_name', 'course_year'];
    const cells = ['=HYPERLINK("http://x")', '＝1+1', "'＋44", '-5'];
    const table = { headers: columns, records: [{ row: 2, blank: false, cells, values: {} }] };
    const written = writeUploadCsv(table, { errors: new Map([[2, ['course_year must be 1 or more']]]), bom: true });
    expect(written.split('\r\n')[1]).toBe(`"'=HYPERLINK(""http://x"")",'＝1+1,''＋44,'-5,course_year must be 1 or more`);
    const back = await parseUploadCsv(new TextEncoder().encode(written), { columns, maxBytes: 1_048_576, maxRows: 10, maxRecords: 20 });
    expect(back.records.map((r) => r.cells)).toEqual([cells]);
  });
});
