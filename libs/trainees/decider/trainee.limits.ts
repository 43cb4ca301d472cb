import { DISABILITY_KEYS_MAX } from '@app/trainees/record';

/**
 * The most placements, degrees and disabilities one trainee holds (docs/DESIGN.md ruling 14). A
 * create body's nested arrays and `disabilityN` keys are bounded by the wire checks; these bound
 * what POST …/placements and POST …/degrees add one at a time, and what updates merge, so no
 * sequence of requests makes a trainee (its document and its stream's snapshot) grow without
 * bound. The same numbers as the nested maxima: a trainee created with the most nested placements
 * or degrees can add no more until one is removed.
 */

/** Most placements of a trainee: 20 (a handful of schools over a course; QTS needs 2, docs/reference/API-FACTS.md §12.5). */
export const TRAINEE_PLACEMENTS_MAX = 20;

/** Most degrees of a trainee: 10 (a first degree, perhaps a master's and a doctorate). */
export const TRAINEE_DEGREES_MAX = 10;

/** The 422 message of an add over {@link TRAINEE_PLACEMENTS_MAX}, worded as the length messages of docs/reference/API-FACTS.md §6.4. */
export const TOO_MANY_PLACEMENTS = `placements is too long (maximum is ${TRAINEE_PLACEMENTS_MAX} placements): remove one before adding another`;

/** The 422 message of an add over {@link TRAINEE_DEGREES_MAX}. */
export const TOO_MANY_DEGREES = `degrees is too long (maximum is ${TRAINEE_DEGREES_MAX} degrees): remove one before adding another`;

/** Most `disabilityN` keys of a trainee, however many updates added them: as many as one body may send. */
export const TRAINEE_DISABILITIES_MAX = DISABILITY_KEYS_MAX;

/** The 422 message of an update whose merged disabilities pass {@link TRAINEE_DISABILITIES_MAX}. */
export const TOO_MANY_DISABILITIES =
  `disabilities is too long (maximum is ${TRAINEE_DISABILITIES_MAX} disabilities): ` +
  'send a disabilityN key as null to remove one before adding another';
