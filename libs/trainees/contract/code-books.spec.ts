import { traineeRulesFor } from './rules';
import type { RefListName, ApiVersion } from '@app/trainees/record';
import {
  acceptedTrainingRouteCodes,
  codesFor,
  isKnownCode,
  isTrainingRouteAcceptedOnWrite,
  lookupCode,
  messageCodes,
  unknownCodeMessage,
} from './code-books';

/** The list tails of docs/reference/API-FACTS.md §6.9, verbatim (the part after "… value of 'X'. "). */
const SECTION_6_9: [string, RefListName, string, string][] = [
  ['sex', 'sex', "Valid values are '10', '11', '12', '96', '99'.", "Valid values are '10', '11', '12', '96', '99'."],
  [
    'training_route',
    'training_route',
    "Valid values are '02', '03', '09', '10', '11', '12', '14'.",
    "Example values include '03', '09', '10', '11', '12', '14', '15', '16', '17', '18'...",
  ],
  ['study_mode', 'study_mode', "Valid values are '01', '02', '31', '63', '64'.", "Valid values are '01', '02', '31', '63', '64'."],
  [
    'ethnicity',
    'ethnicity',
    "Example values include '180', '100', '101', '103', '104', '119', '120', '121', '139', '140'...",
    "Example values include '100', '101', '103', '104', '119', '120', '121', '139', '140', '141'...",
  ],
  [
    'course subjects',
    'course_subject',
    "Example values include '101117', '100343', '101038', '100358', '101060', '101192', '100346', '100078', '100079', '100417'...",
    "Example values include '100048', '100050', '100061', '100068', '100069', '100071', '100078', '100079', '100091', '100092'...",
  ],
  [
    'nationality',
    'nationality',
    "Example values include 'AL', 'AF', 'DZ', 'US', 'AD', 'AO', 'AI', 'AR', 'AM', 'AU'...",
    "Example values include 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AT'...",
  ],
  [
    'training_initiative',
    'training_initiative',
    "Valid values are '009', '011', '025', '026', '036'.",
    "Valid values are '009', '011', '025', '026', '036'.",
  ],
  ['itt_aim', 'itt_aim', "Valid values are '201', '202'.", "Valid values are '201', '202'."],
  [
    'itt_qualification_aim',
    'itt_qualification_aim',
    "Example values include '001', '002', '003', '004', '007', '008', '020', '021', '028', '031'...",
    "Example values include '001', '002', '003', '004', '007', '008', '020', '021', '028', '031'...",
  ],
  [
    'course_age_range',
    'course_age_range',
    "Example values include '13909', '13911', '13912', '13913', '13914', '13915', '13916', '13917', '13918', '13919'...",
    "Example values include '13909', '13911', '13912', '13913', '13914', '13915', '13916', '13917', '13918', '13919'...",
  ],
  [
    'funding_method',
    'funding_method',
    "Valid values are '4', '6', '7', '8', '9', 'B', 'C', 'D', 'E'.",
    "Valid values are '4', '6', '7', '8', '9', 'B', 'C', 'D', 'E'.",
  ],
  ['fund_code', 'fund_code', "Valid values are '2', '7'.", "Valid values are '2', '7'."],
  [
    'degree country (and iqts_country in v2026.1)',
    'country',
    "Example values include 'AF', 'XQ', 'AX', 'AL', 'DZ', 'AS', 'AD', 'AO', 'AI', 'XX'...",
    "Example values include 'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS'...",
  ],
  [
    'degree uk_degree / non_uk_degree',
    'degree_type',
    "Example values include '002', '010', '013', '014', '051', '052', '053', '054', '055', '056'...",
    "Example values include '001', '002', '003', '005', '007', '009', '010', '012', '013', '014'...",
  ],
];

describe('unknown-code messages (docs/reference/API-FACTS.md §6.9)', () => {
  describe.each(SECTION_6_9)('%s', (_name, list, v2025, v2026) => {
    it.each([
      ['v2025.0', v2025],
      ['v2026.1', v2026],
    ] as [ApiVersion, string][])('%s lists exactly the codes of §6.9', (version, tail) => {
      expect(unknownCodeMessage('field', 'X', list, version)).toBe(`field has invalid reference data value of 'X'. ${tail}`);
    });
  });

  it('has ten codes in every "Example values include" list and all codes otherwise', () => {
    expect(messageCodes('course_subject', 'v2026.1')).toHaveLength(10);
    expect(messageCodes('sex', 'v2025.0')).toEqual(codesFor('sex', 'v2025.0'));
  });

  it('echoes the value as sent, JSON numbers as their text', () => {
    expect(unknownCodeMessage('sex', 10, 'sex', 'v2025.0')).toBe(
      "sex has invalid reference data value of '10'. Valid values are '10', '11', '12', '96', '99'.",
    );
    expect(unknownCodeMessage('sex', { a: 1 }, 'sex', 'v2025.0')).toContain(`value of '{"a":1}'`);
  });
});

describe('code lookups', () => {
  it('finds codes only as strings and only in the versions that accept them', () => {
    expect(lookupCode('sex', '10', 'v2025.0')?.value).toBe('female');
    expect(lookupCode('sex', 10, 'v2025.0')).toBeUndefined();
    expect(lookupCode('sex', null, 'v2025.0')).toBeUndefined();
    expect(isKnownCode('course_age_range', '13920', 'v2026.1')).toBe(true);
    expect(isKnownCode('course_age_range', '13920', 'v2025.0')).toBe(false);
    expect(isKnownCode('sex', 'constructor', 'v2025.0')).toBe(false);
    expect(isKnownCode('sex', '__proto__', 'v2025.0')).toBe(false);
  });

  it('knows which routes each version accepts on write (docs/reference/API-FACTS.md §6.6, §18)', () => {
    expect(acceptedTrainingRouteCodes('v2025.0')).toEqual(['02', '03', '09', '10', '11', '12', '14']);
    expect(acceptedTrainingRouteCodes('v2026.1')).toEqual(['03', '09', '10', '11', '12', '14', '15', '16', '17', '18', '19', '20', '21']);
    expect(isTrainingRouteAcceptedOnWrite('15', 'v2025.0')).toBe(false);
    expect(isTrainingRouteAcceptedOnWrite('02', 'v2026.1')).toBe(false);
    expect(isTrainingRouteAcceptedOnWrite('99', 'v2026.1')).toBe(false);
  });

  it('maps the output codes of §13.4', () => {
    expect(lookupCode('nationality', 'JE', 'v2026.1')?.output_code).toBe('GB');
    expect(lookupCode('ethnicity', '998', 'v2026.1')?.output_code).toBe('997');
  });
});

describe('the version rules read from the trainee record table', () => {
  it('say what course_year and additional_training_initiative accept in each version (docs/reference/API-FACTS.md §6.4, §8.3)', () => {
    expect(traineeRulesFor('v2025.0')).toMatchObject({ courseYear: 'any', additionalTrainingInitiative: 'free_text' });
    expect(traineeRulesFor('v2026.1')).toMatchObject({ courseYear: 'integer', additionalTrainingInitiative: 'coded' });
  });
});
