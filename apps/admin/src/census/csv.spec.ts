import { parse } from 'csv-parse/sync';
import { csvField, csvRecord } from './csv';

/** The census report's CSV (RFC 4180), read back with the project's CSV parser. */
describe('csvRecord', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
  ])('writes %j as %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });

  it('writes null and undefined as empty fields, numbers and booleans as text, and ends the record with CRLF', () => {
    expect(csvRecord([null, undefined, 3, false, 'x'])).toBe(',,3,false,x\r\n');
  });

  it('round-trips through csv-parse', () => {
    const rows = [
      ['trainee_id', 'note'],
      ['T1', 'a, "quoted"\r\nvalue'],
      ['T2', ''],
    ];
    expect(parse(rows.map(csvRecord).join(''))).toEqual(rows);
  });
});
