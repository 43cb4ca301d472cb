/**
 * What the specifications of a trainee create body share: a valid degree, the overrides of a
 * postgraduate route, and the messages or the record `createBody` answers for the valid payload
 * of `trainee-payload.ts` with some fields changed.
 */
import type { ApiVersion, TraineeDetails } from '@app/trainees/record';
import { createBody } from './bodies';
import { payload, TODAY } from './trainee-payload';

/** A valid nested UK degree. */
export const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003' };

/** Overrides for a postgraduate route that needs a degree. */
export const POSTGRAD = (route: string): Record<string, unknown> => ({ training_route: route, degrees_attributes: [DEGREE] });

/** The messages of the valid payload of `version` with `over` (canonical names), today being {@link TODAY}; [] when valid. */
export function errorsOf(version: ApiVersion, over: Record<string, unknown> = {}): string[] {
  const result = createBody(payload(version, over), { version, today: TODAY });
  return result.ok ? [] : result.errors;
}

/** The record stored for the valid payload of `version` with `over`; throws with the messages when it is refused. */
export function detailsOf(version: ApiVersion, over: Record<string, unknown> = {}): TraineeDetails {
  const result = createBody(payload(version, over), { version, today: TODAY });
  if (!result.ok) throw new Error(`expected valid, got ${JSON.stringify(result.errors)}`);
  return result.value.details;
}

/** The name (and message label) of course subject 1, 2 or 3 in `version`, written out so that the tests check the naming. */
export const s1 = (v: ApiVersion): string => (v === 'v2025.0' ? 'course_subject_one' : 'course_subject_1');
export const s2 = (v: ApiVersion): string => (v === 'v2025.0' ? 'course_subject_two' : 'course_subject_2');
export const s3 = (v: ApiVersion): string => (v === 'v2025.0' ? 'course_subject_three' : 'course_subject_3');
