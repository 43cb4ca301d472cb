import { registerEventSchemas } from '@app/event-sourcing';
import { academicCycleOf } from './academic-cycle';
import type { TraineeDetails, Trainee } from '@app/trainees/record';

/**
 * The duplicate rule for a new trainee against one of the same provider (docs/spec/trainee-records-api.md "Duplicate rules";
 * docs/DESIGN.md ruling 11).
 */
export function isDuplicateOf(candidate: TraineeDetails, existing: Trainee): boolean {
  const e = existing.details;
  return (
    e.date_of_birth === candidate.date_of_birth &&
    e.training_route === candidate.training_route &&
    lastNameKey(e.last_name) === lastNameKey(candidate.last_name) &&
    startCycle(e) === startCycle(candidate) &&
    (firstNamesKey(e.first_names) === firstNamesKey(candidate.first_names) || emailKey(e.email) === emailKey(candidate.email))
  );
}

/** The trainees among `candidates` that `details` duplicates, in the order given. */
export function findDuplicates(details: TraineeDetails, candidates: Iterable<Trainee>): Trainee[] {
  const found: Trainee[] = [];
  for (const c of candidates) if (isDuplicateOf(details, c)) found.push(c);
  return found;
}

/** first_names reduced to lower-case letters and digits (punctuation, spaces and symbols dropped). */
export function firstNamesKey(firstNames: string): string {
  return firstNames
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** last_name compared ignoring case (and surrounding or repeated white space). */
export function lastNameKey(lastName: string): string {
  return lastName.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** email compared ignoring case and surrounding white space. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Start year of the academic cycle holding trainee_start_date, else itt_start_date. */
export function startCycle(d: Pick<TraineeDetails, 'trainee_start_date' | 'itt_start_date'>): number {
  return academicCycleOf(d.trainee_start_date || d.itt_start_date);
}

/**
 * The exact part of the rule, which possible duplicates always share: creates meet per key (docs/DESIGN.md "Registration
 * reservations"). Holds personal data: hash it, keyed, before use as a name.
 */
export function duplicateGuardKey(ukprn: string, d: Pick<TraineeDetails, 'date_of_birth' | 'training_route' | 'last_name'>): string {
  return [ukprn, d.date_of_birth, d.training_route, lastNameKey(d.last_name)].join('\u0000');
}

/** The guard streams of older logs (docs/DESIGN.md "Registration reservations"). */
export const REGISTRATION_GUARD_STREAM_PREFIX = 'registrationguard-';

/** A guard stream's claim in older logs, no longer written; `admin guards forget` deletes them. */
export interface RegistrationClaimed {
  type: 'RegistrationClaimed';
  data: { trainee_id: string; at: string };
}

registerEventSchemas({ RegistrationClaimed: 1 });

/** The degree fields the duplicate-degree rule compares (docs/spec/trainee-records-api.md "Duplicate rules"). */
export const DEGREE_DUPLICATE_KEYS = ['subject', 'graduation_year', 'country', 'uk_degree', 'non_uk_degree', 'grade'] as const;

type DegreeKeys = { [K in (typeof DEGREE_DUPLICATE_KEYS)[number]]: string | number | null };

/** Equal on every key, absent only equal to absent (docs/spec/trainee-records-api.md "Duplicate rules"). */
export function isDuplicateDegree(incoming: DegreeKeys, existing: DegreeKeys): boolean {
  return DEGREE_DUPLICATE_KEYS.every((k) => (incoming[k] ?? null) === (existing[k] ?? null));
}
