import { DISABILITY_KEYS_MAX } from '@app/trainees/record';

/**
 * What one trainee holds however it was added, so no sequence of requests grows it without bound (docs/DESIGN.md ruling 14); the
 * same as a create's nested maxima.
 */

export const TRAINEE_PLACEMENTS_MAX = 20;
export const TRAINEE_DEGREES_MAX = 10;

/** The 422 message of an add over {@link TRAINEE_PLACEMENTS_MAX}, worded as the length messages of docs/reference/API-FACTS.md §6.4. */
export const TOO_MANY_PLACEMENTS = `placements is too long (maximum is ${TRAINEE_PLACEMENTS_MAX} placements): remove one before adding another`;

export const TOO_MANY_DEGREES = `degrees is too long (maximum is ${TRAINEE_DEGREES_MAX} degrees): remove one before adding another`;

export const TRAINEE_DISABILITIES_MAX = DISABILITY_KEYS_MAX;

export const TOO_MANY_DISABILITIES =
  `disabilities is too long (maximum is ${TRAINEE_DISABILITIES_MAX} disabilities): ` +
  'send a disabilityN key as null to remove one before adding another';
