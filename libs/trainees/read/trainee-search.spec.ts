import { matchesSearchWords, searchWords } from './trainee-search';

describe('the trainee search rule', () => {
  it('splits at white space into lower-case words, none for a blank search', () => {
    expect(searchWords('  Jane   SMITH\t99/1 ')).toEqual(['jane', 'smith', '99/1']);
    expect(searchWords('Ünal ÇELIK')).toEqual(['ünal', 'çelik']);
    expect(searchWords(' \n ')).toEqual([]);
  });

  it('keeps a trainee whose first names, last name or provider trainee id holds each word, ignoring case', () => {
    const matches = (text: string) => matchesSearchWords('Mary Jane', "O'Brien-Ünal", 'PT/2025/0042', searchWords(text));
    expect(matches('mary')).toBe(true);
    expect(matches('JANE o’brien')).toBe(false);
    expect(matches("jane o'brien")).toBe(true);
    expect(matches('ÜNAL')).toBe(true);
    expect(matches('rien')).toBe(true);
    expect(matches('pt/2025')).toBe(true);
    expect(matches('0042 mary')).toBe(true);
    expect(matches('smith')).toBe(false);
    expect(matches('mary smith')).toBe(false);
    expect(matches('')).toBe(true);
  });

  it('matches no word across two values, and reads a missing provider trainee id as none', () => {
    expect(matchesSearchWords('Ann', 'Lee', null, ['annlee'])).toBe(false);
    expect(matchesSearchWords('Ann', 'Lee', null, ['lee'])).toBe(true);
    expect(matchesSearchWords('Ann', 'Lee', null, ['null'])).toBe(false);
  });
});
