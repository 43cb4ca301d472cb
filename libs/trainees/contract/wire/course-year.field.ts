import { COURSE_YEAR_MAX, COURSE_YEAR_MIN, TEXT_MAX_CHARS } from '@app/trainees/record';
import { MaxChars, Satisfies } from './constraints';
import type { FieldBase, WireField } from './wire-object';

/** A `course_year` integer within the real service's column ({@link COURSE_YEAR_MIN} … {@link COURSE_YEAR_MAX}). */
const inCourseYearRange = (n: number): boolean => Number.isInteger(n) && n >= COURSE_YEAR_MIN && n <= COURSE_YEAR_MAX;

/** The integer a string of at most 10 digits stands for, within the column's range; null otherwise. */
function courseYearOfDigits(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return inCourseYearRange(n) ? n : null;
}

/**
 * `course_year`: where the version wants an integer, an integer or a string of digits; elsewhere
 * any number or string of at most {@link TEXT_MAX_CHARS} characters (docs/reference/API-FACTS.md
 * §6.4; the bound: docs/DESIGN.md ruling 14); a string of digits is stored as a number. A number,
 * or a string of digits read as one, must fit the real service's integer column
 * ({@link COURSE_YEAR_MIN} … {@link COURSE_YEAR_MAX}), else `course_year is not a valid course year`.
 */
export function courseYearField(base: FieldBase, description: string, integer: boolean): WireField {
  const test = integer
    ? (v: unknown) => (typeof v === 'number' && inCourseYearRange(v)) || (typeof v === 'string' && courseYearOfDigits(v) !== null)
    : (v: unknown) =>
        (typeof v === 'number' && Number.isFinite(v) && v >= COURSE_YEAR_MIN && v <= COURSE_YEAR_MAX) || typeof v === 'string';
  const range = { minimum: COURSE_YEAR_MIN, maximum: COURSE_YEAR_MAX };
  return {
    ...base,
    checks: [
      Satisfies('courseYear', test, (label) => `${label} is not a valid course year`),
      ...(integer ? [] : [MaxChars(TEXT_MAX_CHARS)]),
    ],
    convert: (v) => {
      if (typeof v === 'number') return v;
      const t = String(v).trim();
      return courseYearOfDigits(t) ?? t;
    },
    schema: {
      description: `${description} ${integer ? 'An integer (or a string of at most 10 digits)' : 'Any number or string is accepted (a string of digits is stored as a number)'}; a number from ${COURSE_YEAR_MIN} to ${COURSE_YEAR_MAX}, the range of the integer it is kept as.`,
      oneOf: integer
        ? [{ type: 'integer', ...range }, { type: 'string', pattern: '^\\d{1,10}$', maxLength: 10 }, { type: 'null' }]
        : [{ type: 'number', ...range }, { type: 'string', maxLength: TEXT_MAX_CHARS }, { type: 'null' }],
      example: '2026',
    },
  };
}
