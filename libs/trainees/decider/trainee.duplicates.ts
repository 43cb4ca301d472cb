import { registerEventSchemas } from '@app/event-sourcing';
import { academicCycleOf } from './academic-cycle';
import type { TraineeDetails, Trainee } from '@app/trainees/record';

/**
 * The duplicate rule for a new trainee (docs/spec/trainee-records-api.md "Duplicate rules"; docs/DESIGN.md ruling 11). An existing
 * trainee of the same provider is a duplicate when all hold:
 * 1. date_of_birth and training_route are equal, last_name is equal ignoring case;
 * 2. both start dates (trainee_start_date, else itt_start_date) fall in the same academic year
 *    (1 August – 31 July);
 * 3. the whole first_names match ignoring case, punctuation and special characters, or the
 *    emails match ignoring case (and surrounding white space).
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
 * The part of the rule that is an exact key: trainees that can duplicate each other always share
 * it. Writers serialise creates per key (a registration reservation) so that of N concurrent
 * identical creates exactly one succeeds (docs/DESIGN.md property 3). Holds personal data: hash it,
 * keyed, before use as a name.
 */
export function duplicateGuardKey(ukprn: string, d: Pick<TraineeDetails, 'date_of_birth' | 'training_route' | 'last_name'>): string {
  return [ukprn, d.date_of_birth, d.training_route, lastNameKey(d.last_name)].join('\u0000');
}

/**
 * Stream category of the duplicate guard streams of older logs: `registrationguard-<hash of the
 * guard key>` (docs/DESIGN.md property 3: new creates claim a reservation in the key store instead).
 */
export const REGISTRATION_GUARD_STREAM_PREFIX = 'registrationguard-';

/**
 * The claim older logs hold in a guard stream, one per registration, naming its trainee. No longer
 * written (docs/DESIGN.md property 3); `admin guards forget` deletes them.
 */
export interface RegistrationClaimed {
  type: 'RegistrationClaimed';
  data: { trainee_id: string; at: string };
}

registerEventSchemas({ RegistrationClaimed: 1 });

/** The degree fields the duplicate-degree rule compares (docs/spec/trainee-records-api.md "Duplicate rules"). */
export const DEGREE_DUPLICATE_KEYS = ['subject', 'graduation_year', 'country', 'uk_degree', 'non_uk_degree', 'grade'] as const;

type DegreeKeys = { [K in (typeof DEGREE_DUPLICATE_KEYS)[number]]: string | number | null };

/**
 * A degree duplicates another of the same trainee when subject, graduation_year, country,
 * uk_degree, non_uk_degree and grade all equal (docs/spec/trainee-records-api.md "Duplicate rules"; an absent value equals only
 * an absent value).
 */
export function isDuplicateDegree(incoming: DegreeKeys, existing: DegreeKeys): boolean {
  return DEGREE_DUPLICATE_KEYS.every((k) => (incoming[k] ?? null) === (existing[k] ?? null));
}
