/**
 * The bounds of every write body where the spec and the reference set none (docs/DESIGN.md ruling 14; docs/operations.md "Limits"):
 * far above what a real trainee has, small enough that a body at the maximum costs about what an ordinary one does.
 */

/** A handful of schools over a course (a QTS recommendation needs two, docs/reference/API-FACTS.md §12.5); each is an event. */
export const PLACEMENTS_ATTRIBUTES_MAX_ITEMS = 20;

/** A first degree, perhaps a master's and a doctorate; each is an event. */
export const DEGREES_ATTRIBUTES_MAX_ITEMS = 10;

/** A trigger allows at most 11 distinct reasons (docs/reference/API-FACTS.md §12.4), with room for repeats (dropped when stored). */
export const WITHDRAWAL_REASONS_MAX_ITEMS = 20;

/** A short free text no source bounds: the reference's length for `other_grade` and the email (docs/reference/API-FACTS.md §6.4). */
export const TEXT_MAX_CHARS = 255;

/** The real service keeps `course_year` in a 4-byte integer column (docs/reference/API-FACTS.md §6.4). */
export const COURSE_YEAR_MIN = -2_147_483_648;
export const COURSE_YEAR_MAX = 2_147_483_647;

/** A withdrawal's free texts: a few paragraphs, ten times a deferral's reason (docs/reference/API-FACTS.md §12). */
export const REASON_TEXT_MAX_CHARS = 5000;

/** More than either version's disability codes; each key is stored as sent (docs/reference/API-FACTS.md §6.7), so it needs a bound. */
export const DISABILITY_KEYS_MAX = 20;

/** Checked before the body is parsed (apps/api/src/bodies/json-body.ts); the deepest real body has 4 levels. */
export const JSON_MAX_DEPTH = 16;

/** Items of one array or members of one object, checked with the depth; real bodies hold at most about 70. */
export const JSON_MAX_ITEMS = 1000;

/**
 * About twice the largest valid body (every text at its maximum, each character the longest JSON escape), as body-limit.spec.ts
 * works it out from the request schemas; larger answers 413 while read, before parsing.
 */
export const BODY_MAX_BYTES = 512 * 1024;

export const BODY_MAX_TEXT = `${BODY_MAX_BYTES / 1024} KiB`;

/** The body parser's bounds as the OpenAPI document words them. */
export const JSON_BOUNDS_TEXT = `nested at most ${JSON_MAX_DEPTH} levels deep, at most ${JSON_MAX_ITEMS.toLocaleString('en-GB')} items in any array or object`;
