import v2025Example from '../../samples/trainee-v2025.0.json';
import v2026Example from '../../samples/trainee-v2026.1.json';

export type Version = 'v2025.0' | 'v2026.1';

/** The POST /trainees request example of the version's OpenAPI description (docs/reference/openapi). */
export function requestExample(version: Version): { data: Record<string, unknown> } {
  return JSON.parse(JSON.stringify(version === 'v2025.0' ? v2025Example : v2026Example));
}

let counter = 0;

/**
 * A valid create body for `version`: the reference example with a unique person (names, email
 * and date of birth differ per call), so that trainees made by one test never duplicate each other.
 */
export function uniqueTrainee(version: Version, overrides: Record<string, unknown> = {}): { data: Record<string, unknown> } {
  counter += 1;
  const body = requestExample(version);
  const n = `${process.pid}${counter}`;
  const letters = n.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);
  const day = String((counter % 28) + 1).padStart(2, '0');
  Object.assign(body.data, {
    first_names: `Alex${letters}`,
    last_name: `Tester${letters}`,
    email: `alex.${n}@example.com`,
    date_of_birth: `1991-03-${day}`,
    ...overrides,
  });
  return body;
}

/**
 * A create body of `version` for a trainee a provider can recommend for QTS or EYTS once registered: two placements, as the
 * example's route needs for a recommendation, and no TRN.
 */
export function recommendableTrainee(version: Version): { data: Record<string, unknown> } {
  const body = uniqueTrainee(version, { placements_attributes: [{ urn: '900020' }, { urn: '900021', name: 'Second school' }] });
  delete body.data.trn;
  return body;
}
