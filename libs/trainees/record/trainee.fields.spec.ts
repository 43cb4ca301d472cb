import { messageOrderOf, storedNamesOf, type FieldRow } from './field-table';
import { TRAINEE_DETAILS_NAMES, TRAINEE_FIELD_MESSAGE_ORDER, TRAINEE_STORED_INPUTS } from './trainee.fields';
import { TRAINEE_RECORD } from './trainee.record';

describe('what the trainee table gives besides its rows (docs/DESIGN.md "The record tables")', () => {
  const inputs = TRAINEE_RECORD.filter((row) => 'input' in row).map((row) => row.name);

  it('orders the messages of every field a body may send, each once, with the disabilityN keys among them', () => {
    expect([...TRAINEE_FIELD_MESSAGE_ORDER].sort()).toEqual([...inputs, 'disabilities'].sort());
    // docs/reference/API-FACTS.md §6.3: the required fields first (first_names leads), then the optional ones.
    expect(TRAINEE_FIELD_MESSAGE_ORDER.slice(0, 3)).toEqual(['first_names', 'last_name', 'date_of_birth']);
    const at = (name: string): number => TRAINEE_FIELD_MESSAGE_ORDER.indexOf(name);
    expect(at('ethnicity') + 1).toBe(at('disabilities'));
    expect(at('disabilities') + 1).toBe(at('training_initiative'));
    expect(at('course_age_range')).toBeLessThan(at('middle_names'));
  });

  it('gives every ranked field a rank of its own', () => {
    const ranks = TRAINEE_RECORD.flatMap((row) => ('input' in row && 'messageRank' in row.input ? [row.input.messageRank] : []));
    expect(new Set(ranks).size).toBe(ranks.length);
  });

  it('answers a field without a rank after the ranked ones, in table order', () => {
    const table: FieldRow<never>[] = [
      { name: 'b', input: { kind: { kind: 'date' }, description: '', person: { label: 'X', example: null } } },
      { name: 'a', input: { kind: { kind: 'date' }, messageRank: 2, description: '', person: { label: 'X', example: null } } },
      { name: 'c', input: { kind: { kind: 'date' }, description: '', person: { label: 'X', example: null } } },
      { name: 'out', answer: { schema: {} } },
    ];
    expect(messageOrderOf(table, { beside: 1 })).toEqual(['beside', 'a', 'b', 'c']);
  });

  it('names the stored record: every answered row without a value of its own, in table order, then disabilities', () => {
    expect(TRAINEE_DETAILS_NAMES).toEqual([...storedNamesOf(TRAINEE_RECORD), 'disabilities']);
    expect(TRAINEE_DETAILS_NAMES).toEqual(expect.arrayContaining(['first_names', 'course_age_range', 'ethnic_group', 'course_min_age']));
    for (const derived of ['trainee_id', 'state', 'applying_for_bursary', 'course_itt_start_date'])
      expect(TRAINEE_DETAILS_NAMES).not.toContain(derived);
    // What an update's merged record starts from: the stored members a body may send.
    expect([...TRAINEE_STORED_INPUTS].sort()).toEqual(inputs.filter((n) => !n.endsWith('_attributes')).sort());
  });
});
