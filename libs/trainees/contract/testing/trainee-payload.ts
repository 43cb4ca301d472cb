import { versionFieldName, type ApiVersion } from '@app/trainees/record';

/** The day the validation specs take as today. */
export const TODAY = '2026-11-22';

/** Both API versions. */
export const BOTH: ApiVersion[] = ['v2025.0', 'v2026.1'];

/** A valid create payload (route 11, undergraduate, cycle 2026) in `version`'s names; `over` uses canonical names, undefined deletes. */
export function payload(version: ApiVersion, over: Record<string, unknown> = {}): Record<string, unknown> {
  const canonical: Record<string, unknown> = {
    first_names: 'Ada',
    last_name: 'Lovelace',
    date_of_birth: '1990-05-01',
    sex: '10',
    email: 'ada@example.com',
    training_route: '11',
    itt_start_date: '2026-09-01',
    itt_end_date: '2029-07-31',
    statsagency_id: '1234567890123',
    course_subject_1: '100346',
    study_mode: '01',
    itt_aim: '201',
    course_year: '2026',
    course_age_range: '13918',
    fund_code: '2',
    funding_method: '6',
    ...over,
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(canonical)) {
    if (value === undefined) continue;
    out[versionFieldName(key, version) ?? key] = value;
  }
  return out;
}
