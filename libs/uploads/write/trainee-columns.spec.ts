import { addTraineeColumns, columnOfMessage, createBodyOf, templateRowOf } from './trainee-columns';

describe('the columns of an add-trainees file', () => {
  it('are the version’s create fields by their API names, then disabilities, placement URNs and one degree', () => {
    const v2026 = addTraineeColumns('v2026.1');
    const v2025 = addTraineeColumns('v2025.0');
    expect(v2026.slice(0, 3)).toEqual(['provider_trainee_id', 'first_names', 'middle_names']);
    expect(v2026).toEqual(expect.arrayContaining(['course_subject_1', 'training_partner_urn', 'iqts_country', 'statsagency_id']));
    expect(v2025).toEqual(expect.arrayContaining(['course_subject_one', 'lead_partner_urn']));
    expect(v2025).not.toContain('iqts_country');
    expect(v2026.slice(-14)).toEqual([
      'disability7',
      'disability8',
      'disability9',
      'placement_1_urn',
      'placement_2_urn',
      'placement_3_urn',
      'degree_uk_degree',
      'degree_non_uk_degree',
      'degree_subject',
      'degree_institution',
      'degree_grade',
      'degree_country',
      'degree_graduation_year',
      'degree_other_grade',
    ]);
    expect(v2026).not.toContain('placements_attributes');
    expect(new Set(v2026).size).toBe(v2026.length);
  });

  it('read a row back as the create body: blanks dropped, placements named, one degree when any of its cells is filled', () => {
    expect(
      createBodyOf({ first_names: 'Ann', last_name: '', placement_2_urn: '123456', degree_subject: '100425', disability1: '58' }),
    ).toEqual({
      first_names: 'Ann',
      disability1: '58',
      placements_attributes: [{ name: 'Placement 2', urn: '123456' }],
      degrees_attributes: [{ subject: '100425' }],
    });
    expect(createBodyOf({ first_names: 'Ann', degree_subject: '', placement_1_urn: '' })).toEqual({ first_names: 'Ann' });
  });

  it('write a create body as a row, which reads back as the same body but for the placements’ names', () => {
    const data = {
      first_names: 'Ann',
      middle_names: null,
      course_year: 2,
      placements_attributes: [{ urn: '100038', name: 'Ash Academy' }, { urn: '100039' }],
      degrees_attributes: [{ subject: '100425', graduation_year: '2003-06-01' }],
    };
    const row = templateRowOf(data);
    expect(row).toEqual({
      first_names: 'Ann',
      course_year: '2',
      placement_1_urn: '100038',
      placement_2_urn: '100039',
      degree_subject: '100425',
      degree_graduation_year: '2003-06-01',
    });
    expect(createBodyOf(row)).toEqual({
      first_names: 'Ann',
      course_year: '2',
      placements_attributes: [
        { name: 'Placement 1', urn: '100038' },
        { name: 'Placement 2', urn: '100039' },
      ],
      degrees_attributes: [{ subject: '100425', graduation_year: '2003-06-01' }],
    });
  });

  it('name the column of each API message: a field, a degree’s field, the first placement; none for the row as a whole', () => {
    const columns = addTraineeColumns('v2026.1');
    expect(columnOfMessage("first_names can't be blank", columns, {})).toBe('first_names');
    expect(columnOfMessage('subject must be entered if specifying a previous UK degree', columns, {})).toBe('degree_subject');
    expect(columnOfMessage('placements_attributes urn is invalid', columns, { placement_2_urn: '12' })).toBe('placement_2_urn');
    expect(columnOfMessage('This trainee is already in Register', columns, {})).toBeNull();
  });
});
