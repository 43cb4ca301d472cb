import fc from 'fast-check';
import { escapeCell, unescapeCell } from './csv-cells';
import { columnKeys, headerKey } from './csv-headers';
import { UploadFileRefused, type FileRefusalReason } from './csv-refusal';
import { templateCsv, uploadCsvStream, writeUploadCsv } from './upload-csv';
import { parseUploadCsv, PARSE_CHUNK_BYTES, type UploadCsvOptions } from './upload-csv-read';

const COLUMNS = ['provider_trainee_id', 'first_names', 'last_name', 'sex', 'placement_1_urn'];
const OPTIONS: UploadCsvOptions = { columns: COLUMNS, maxBytes: 1_048_576, maxRows: 1000 };
const HEADER = COLUMNS.join(',');
const utf8 = (text: string) => new TextEncoder().encode(text);
const read = (text: string, options: Partial<UploadCsvOptions> = {}) => parseUploadCsv(utf8(text), { ...OPTIONS, ...options });

/** The refusal `run` rejects with, checked to be an UploadFileRefused for `reason`. */
async function refusal(run: () => Promise<unknown>, reason: FileRefusalReason): Promise<UploadFileRefused> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(UploadFileRefused);
    expect((error as UploadFileRefused).reason).toBe(reason);
    return error as UploadFileRefused;
  }
  throw new Error(`expected a refusal for ${reason}`);
}

describe('reading an upload', () => {
  it('reads a UTF-8 file with a BOM and CRLF, or without and LF, alike', async () => {
    const lines = [HEADER, 'P1,Zoë,Ávila,11,123456', 'P2,Jane,Smith,10,'];
    const crlf = await read(`\uFEFF${lines.join('\r\n')}\r\n`);
    const lf = await read(lines.join('\n'));
    expect(crlf).toEqual(lf);
    expect(lf.headers).toEqual(COLUMNS);
    expect(lf.rowCount).toBe(2);
    expect(lf.records[0]).toEqual({
      row: 2,
      blank: false,
      cells: ['P1', 'Zoë', 'Ávila', '11', '123456'],
      values: { provider_trainee_id: 'P1', first_names: 'Zoë', last_name: 'Ávila', sex: '11', placement_1_urn: '123456' },
    });
    expect(lf.records[1].values.placement_1_urn).toBe('');
  });

  it('reads RFC 4180 quoting: commas, doubled quotes and line breaks inside a cell, one spreadsheet row each', async () => {
    const table = await read(`${HEADER}\r\n"P,1","Mary ""May""","Smith\r\nJones",11,\r\nP2,Jo,Lee,10,\r\n`);
    expect(table.records.map((r) => r.row)).toEqual([2, 3]);
    expect(table.records[0].cells.slice(0, 3)).toEqual(['P,1', 'Mary "May"', 'Smith\r\nJones']);
  });

  it('matches headers ignoring case, spaces, hyphens and underscores, in any order, keeping them as written', async () => {
    const table = await read('Last Name,FIRST-NAMES, provider trainee id ,Sex,Placement 1 URN\nSmith,Jane,P1,10,\n');
    expect(table.headers).toEqual(['Last Name', 'FIRST-NAMES', 'provider trainee id', 'Sex', 'Placement 1 URN']);
    expect(table.columns).toEqual(['last_name', 'first_names', 'provider_trainee_id', 'sex', 'placement_1_urn']);
    expect(table.records[0].values).toMatchObject({ first_names: 'Jane', last_name: 'Smith', provider_trainee_id: 'P1' });
  });

  it('counts blank rows in the numbering but not as trainees; pads short rows; takes trailing empty cells', async () => {
    const table = await read(`${HEADER}\n,,,,\n\nP1,Jane\nP2,Jo,Lee,10,,,\n`);
    expect(table.records.map((r) => [r.row, r.blank])).toEqual([
      [2, true],
      [3, true],
      [4, false],
      [5, false],
    ]);
    expect(table.rowCount).toBe(2);
    expect(table.records[2].cells).toEqual(['P1', 'Jane', '', '', '']);
  });

  it('trims cells and takes the formula escape off', async () => {
    const table = await read(`${HEADER}\n  P1 ,"'=HYPERLINK(""a"")",'-1,''@x,'plain\nP2,=1+1,-,@x,+44\n`);
    expect(table.records[0].cells).toEqual(['P1', '=HYPERLINK("a")', '-1', "'@x", "'plain"]);
    expect(table.records[1].cells).toEqual(['P2', '=1+1', '-', '@x', '+44']);
  });

  it('ignores an errors column wherever it is, however it is written', async () => {
    const table = await read(`Errors,${HEADER}\n"sex is invalid",P1,Jane,Smith,9,\n`);
    expect(table.headers).toEqual(COLUMNS);
    expect(table.records[0].cells).toEqual(['P1', 'Jane', 'Smith', '9', '']);
  });
});

describe('refusing a file as a whole', () => {
  it('refuses more than maxBytes, counting the bytes as sent', async () => {
    const body = `${HEADER}\nP1,Jane,Smith,10,\n`;
    const size = utf8(body).byteLength;
    expect((await read(body, { maxBytes: size })).rowCount).toBe(1);
    expect((await refusal(() => read(body, { maxBytes: size - 1 }), 'too_large')).message).toBe(
      `The selected file must be smaller than ${size - 1} bytes`,
    );
    expect((await refusal(() => parseUploadCsv(new Uint8Array(1_048_577), OPTIONS), 'too_large')).message).toBe(
      'The selected file must be smaller than 1MB',
    );
  });

  it('refuses a file that is not UTF-8 text: Latin-1, UTF-16 with or without a BOM', async () => {
    const latin1 = Uint8Array.from([...utf8(`${HEADER}\nP1,Zo`), 0xeb, ...utf8(',Smith,10,\n')]);
    await refusal(() => parseUploadCsv(latin1, OPTIONS), 'not_utf8');
    const utf16 = (text: string) => new Uint8Array(Buffer.from(text, 'utf16le'));
    await refusal(() => parseUploadCsv(utf16(`\uFEFF${HEADER}\nP1,Jane,Smith,10,\n`), OPTIONS), 'not_utf8');
    await refusal(() => parseUploadCsv(utf16(`${HEADER}\nP1,Jane,Smith,10,\n`), OPTIONS), 'not_utf8');
  });

  it('refuses an empty file, a header-only file, and a file of blank rows', async () => {
    await refusal(() => read(''), 'empty');
    await refusal(() => read('\uFEFF \r\n'), 'empty');
    expect((await refusal(() => read(`${HEADER}\r\n`), 'no_rows')).message).toBe('The selected file must contain at least one trainee');
    await refusal(() => read(`${HEADER}\n,,,,\n\n`), 'no_rows');
  });

  it('refuses more than maxRows trainee rows, blank rows not counted', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `P${i},Jane,Smith,10,`);
    expect((await read([HEADER, ...rows(1000), ',,,,'].join('\n'))).rowCount).toBe(1000);
    expect((await refusal(() => read([HEADER, ...rows(1001)].join('\n')), 'too_many_rows')).message).toBe(
      'The selected file must contain at most 1,000 trainees',
    );
  });

  it('counts blank records toward a bound of their own, and refuses the first record past it', async () => {
    const blanks = (n: number) => '\n'.repeat(n);
    const between = await read(`${HEADER}\nP1,Jane,Smith,10,\n${blanks(1998)}P2,Jo,Lee,10,\n`, { maxRecords: 2000 });
    expect(between.records).toHaveLength(2000);
    expect(between.records.at(-1)).toMatchObject({ row: 2001, blank: false });
    expect(between.records.filter((r) => r.blank)).toHaveLength(1998);
    const refused = await refusal(
      () => read(`${HEADER}\nP1,Jane,Smith,10,\n${blanks(1999)}P2,Jo,Lee,10,\n`, { maxRecords: 2000 }),
      'too_many_records',
    );
    expect(refused.message).toBe('The selected file must have at most 2,000 rows after the header, blank rows included');
    // A trailing run counts too; unless told otherwise, the bound is twice the trainee rows.
    expect((await read(`${HEADER}\nP1,Jane,Smith,10,${blanks(2000)}`, { maxRecords: 2000 })).records).toHaveLength(1);
    await refusal(() => read(`${HEADER}\nP1,Jane,Smith,10,${blanks(2002)}`, { maxRecords: 2000 }), 'too_many_records');
    await refusal(() => read(`${HEADER}\nP1,Jane,Smith,10,\r\n${'\r\n'.repeat(2002)}`), 'too_many_records');
  });

  it('numbers rows as a spreadsheet does when blank lines come before the header', async () => {
    const table = await read(`\n\n${HEADER}\nP1,Jane,Smith,10,\n`);
    expect(table.records.map((r) => r.row)).toEqual([4]);
  });

  it('reads in chunks, a turn of the event loop each, and stops reading at the first record past a bound', async () => {
    const turnsDuring = async (body: string, options: Partial<UploadCsvOptions> = {}): Promise<number> => {
      let turns = 0;
      let ticking = true;
      const tick = (): void => {
        turns++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      await read(body, options).catch(() => undefined);
      ticking = false;
      return turns;
    };
    const row = `P1,${'J'.repeat(50)},Smith,10,\n`;
    const full = `${HEADER}\n${row.repeat(Math.floor(1_000_000 / row.length / 2))}`;
    expect((await read(full, { maxRows: 100_000 })).rowCount).toBeGreaterThan(1000);
    // A megabyte of blank lines: refused after its first few thousand bytes, not read to its end.
    const blankLines = `${HEADER}\nP1,Jane,Smith,10,\n${'\n'.repeat(1_048_000)}`;
    expect(await turnsDuring(blankLines)).toBeLessThan(5);
    expect(await turnsDuring(full, { maxRows: 100_000 })).toBeGreaterThanOrEqual(Math.floor(full.length / PARSE_CHUNK_BYTES));
  });

  it('names at most ten headers in a refusal, and how many more', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `extra${i}`);
    const refused = await refusal(() => read(`${HEADER},${many.join(',')}\n`), 'unknown_headers');
    expect(refused.message).toBe(
      `The selected file has columns that are not in the template: ${many
        .slice(0, 10)
        .map((h) => `'${h}'`)
        .join(', ')} and 4,990 more`,
    );
  });

  it('names unknown headers as written, and missing columns as in the template', async () => {
    const unknown = await refusal(() => read(`${HEADER},Favourite colour,shoe-size\nP1,Jane,Smith,10,,red,9\n`), 'unknown_headers');
    expect(unknown.headers).toEqual(['Favourite colour', 'shoe-size']);
    expect(unknown.message).toBe("The selected file has columns that are not in the template: 'Favourite colour' and 'shoe-size'");
    const missing = await refusal(() => read('first_names,last_name,sex\nJane,Smith,10\n'), 'missing_headers');
    expect(missing.headers).toEqual(['provider_trainee_id', 'placement_1_urn']);
  });

  it('refuses one column twice, a blank header, extra cells in a row, and broken quoting', async () => {
    expect((await refusal(() => read(`${HEADER},First Names\nP1,Jane,Smith,10,,Jo\n`), 'duplicate_headers')).headers).toEqual([
      'First Names',
    ]);
    expect((await refusal(() => read(`${HEADER},\nP1,Jane,Smith,10,,\n`), 'blank_header')).message).toBe(
      'Column 6 of the selected file has no header',
    );
    expect((await refusal(() => read(`${HEADER}\nP1,Jane,Smith,10,\nP2,Jo,Lee,10,,extra\n`), 'too_many_cells')).row).toBe(3);
    expect((await refusal(() => read(`${HEADER}\nP1,"Jane,Smith,10,\n`), 'malformed')).message).toMatch(
      /a quoted cell is not closed near line/,
    );
    expect((await refusal(() => read(`${HEADER}\nP1,"Jane"x,Smith,10,\n`), 'malformed')).message).toMatch(/closing quote is followed/);
    expect((await refusal(() => read(`${HEADER}\nP1,Ja"ne,Smith,10,\n`), 'malformed')).message).toMatch(/not between quotes holds a quote/);
  });

  it('refuses a column list whose names cannot be told apart (a programming error)', async () => {
    expect(() => columnKeys(['first_names', 'First Names'])).toThrow(/cannot be told apart/);
    expect(headerKey(' Placement-1_URN ')).toBe('placement1urn');
  });
});

/** Unicode text, often starting as a formula would, or with quotes before one. */
const text = fc
  .tuple(fc.constantFrom('', "'", "''", '=', '+', '-', '@', '\t', '\r', "'=", ' ='), fc.fullUnicodeString({ maxLength: 10 }))
  .map(([start, rest]) => start + rest);

describe('writing CSV back', () => {
  it('writes the template: the header row only, with a BOM when asked', async () => {
    expect(templateCsv(COLUMNS)).toBe(`${HEADER}\r\n`);
    expect(templateCsv(COLUMNS, { bom: true })).toBe(`\uFEFF${HEADER}\r\n`);
  });

  it('adds an errors column and escapes formula-looking cells; the file read back is the one uploaded', async () => {
    const uploaded = await read(`${HEADER}\nP1,"=HYPERLINK(""http://x"",""y"")",Smith,9,\nP2,Jo,Lee,10,123456\n`);
    const errors = new Map([[2, ['sex has invalid reference data value of 9', 'first_names is invalid']]]);
    const written = writeUploadCsv(uploaded, { errors });
    expect(written.split('\r\n')).toEqual([
      `${HEADER},errors`,
      `P1,"'=HYPERLINK(""http://x"",""y"")",Smith,9,,"sex has invalid reference data value of 9\nfirst_names is invalid"`,
      'P2,Jo,Lee,10,123456,',
      '',
    ]);
    const again = await parseUploadCsv(utf8(written), OPTIONS);
    expect(again.records).toEqual(uploaded.records);
  });

  it('streams the same text as it writes whole, a chunk of records at a time', async () => {
    const records = Array.from({ length: 300 }, (_, i) => ({
      row: i + 2,
      blank: false,
      cells: [`P${i}`, '=1', 'Smith', '10', ''],
      values: {},
    }));
    const errors = new Map([[5, ['sex is invalid']]]);
    const chunks: string[] = [];
    for await (const chunk of uploadCsvStream({ headers: COLUMNS, records }, { errors, bom: true })) chunks.push(String(chunk));
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.join('')).toBe(writeUploadCsv({ headers: COLUMNS, records }, { errors, bom: true }));
  });

  it('round-trips any trimmed values: reading what was written gives the same records', async () => {
    // Any Unicode text but NUL (no CSV text holds one: such a file is refused as not text).
    const cell = text.map((s) => s.replaceAll('\u0000', '').trim());
    const record = fc.array(cell, { minLength: COLUMNS.length, maxLength: COLUMNS.length });
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 8 }), fc.boolean(), async (rows, bom) => {
        const all = [['P1', 'Jane', 'Smith', '10', ''], ...rows];
        const records = all.map((cells, i) => ({ row: i + 2, blank: cells.every((c) => c === ''), cells, values: {} }));
        const text = writeUploadCsv({ headers: COLUMNS, records }, { bom });
        const back = await parseUploadCsv(utf8(text), OPTIONS);
        expect(back.records.map((r) => r.cells)).toEqual(all);
        expect(back.records.map((r) => r.row)).toEqual(records.map((r) => r.row));
      }),
    );
  });

  it('escapes exactly what a spreadsheet would run, and unescaping gives the value back', async () => {
    fc.assert(
      fc.property(text, (value) => {
        const cell = escapeCell(value);
        return unescapeCell(cell) === value && !/^[=+\-@\t\r]/.test(cell) && (cell === value) === !/^'*(?:[\t\r]|\s*[=+\-@])/.test(value);
      }),
    );
    expect(escapeCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(escapeCell('\t=1')).toBe("'\t=1");
    expect(escapeCell("O'Neill")).toBe("O'Neill");
  });
});
