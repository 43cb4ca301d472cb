/**
 * The maximum item count of every array a write body can hold (docs/DESIGN.md ruling 14). The
 * contract and the reference leave them open (docs/spec/trainee-records-api.md "Limits";
 * docs/reference/API-FACTS.md has no such limit); without one a single create with tens of
 * thousands of nested placements blocks the service. Each maximum is far above what a real trainee
 * has, and small enough that a body at the maximum costs about what an ordinary one does. The same
 * in every API version; over the maximum the body answers 422 with
 * `<field> is too long (maximum is <n> <items>)` and its items are not checked.
 */

/**
 * Most nested `placements_attributes` of a trainee create: 20. A trainee is placed in a handful of
 * schools over an ITT course: recommending one for QTS needs at least two placements
 * (docs/reference/API-FACTS.md §12.5), a one-year course has two or three, a three- or four-year
 * undergraduate course rarely more than eight. Each nested placement becomes one event of the
 * trainee's stream, so the maximum also bounds the stream a create starts.
 */
export const PLACEMENTS_ATTRIBUTES_MAX_ITEMS = 20;

/**
 * Most nested `degrees_attributes` of a trainee create: 10. A trainee's previous degrees are a
 * handful at most (a first degree, perhaps a master's and a doctorate; the create needs one for a
 * postgraduate route, docs/reference/API-FACTS.md §6.3). Each becomes one event of the stream.
 */
export const DEGREES_ATTRIBUTES_MAX_ITEMS = 10;

/**
 * Most withdrawal reasons (POST …/withdraw): 20. A trigger allows at most 11 distinct reasons
 * (docs/reference/API-FACTS.md §12.4: the trainee trigger's ten, plus safeguarding_concerns in
 * v2026.1, docs/DESIGN.md ruling 7), so every allowed list fits, with room for repeats (dropped
 * when stored).
 */
export const WITHDRAWAL_REASONS_MAX_ITEMS = 20;

/**
 * Most characters of a short free-text field that neither the spec nor the reference bounds
 * (`previous_last_name`, `training_partner_urn`, `training_partner_ukprn`, `employing_school_urn`,
 * v2025.0's free-text `additional_training_initiative`, a `disabilityN` value, a degree's
 * `institution`, `grade` and `other_grade`): 255, the length the OpenAPI document states for
 * `other_grade` and the email's (docs/reference/API-FACTS.md §6.4). More answers
 * `<field> is too long (maximum is 255 characters)`.
 */
export const TEXT_MAX_CHARS = 255;

/**
 * The range of `course_year`: the real service keeps it in an integer column (4 bytes), which a
 * larger value would overflow, so an integer outside −2,147,483,648 … 2,147,483,647 (a string of
 * more than 10 digits included) answers `course_year is not a valid course year`
 * (docs/reference/API-FACTS.md §6.4; docs/reference/reference-data/README.md: course_year, an integer).
 */
export const COURSE_YEAR_MIN = -2_147_483_648;
export const COURSE_YEAR_MAX = 2_147_483_647;

/**
 * Most characters of a withdrawal's free texts, the ones its reasons need
 * (trainee-lifecycle.record.ts): 5,000, room for a few paragraphs (a deferral's reason has a tenth
 * of that, docs/reference/API-FACTS.md §12).
 */
export const REASON_TEXT_MAX_CHARS = 5000;

/**
 * Most `disabilityN` keys in one trainee body: 20, more than the disability codes of either
 * version; each key's number has at most 2 digits (`disability1` … `disability99`). Each key is
 * stored and answered as sent (docs/reference/API-FACTS.md §6.7), so an unbounded number of keys
 * would grow the trainee without bound.
 */
export const DISABILITY_KEYS_MAX = 20;

/**
 * Deepest nesting of arrays and objects in any request body: 16, checked by the API's body parser
 * before the body is parsed (apps/api/src/bodies/json-body.ts). The deepest real body has 4 levels
 * (`{data: {placements_attributes: [{…}]}}`). More answers 400 `BadRequest` naming the limit.
 */
export const JSON_MAX_DEPTH = 16;

/**
 * Most items of one array or members of one object in any request body: 1,000, checked with the
 * depth. The largest arrays of a real body hold 20, the largest object about 70 fields; an array
 * between its own maximum (above) and this one answers its own 422.
 */
export const JSON_MAX_ITEMS = 1000;

/**
 * Largest request body, in bytes: 512 KiB; a larger one answers 413 `PayloadTooLarge` while it is
 * read, before it is parsed (the API's `bodyLimit`). The largest body the contract accepts, a
 * create with 20 placements, 10 degrees and 20 disabilities, every text at its maximum and every
 * character of it written as the longest JSON escape (`\ud83d\ude00`, 12 bytes for one character),
 * is about 280 kB, worked out from the OpenAPI request schemas (body-limit.spec.ts); the rest is a
 * margin for white space and for read-only keys a client echoes from an answer, which are ignored
 * (docs/DESIGN.md ruling 14). The limit used to be 5 MiB: a body of unknown keys was read and
 * parsed in full (166 ms of the event loop at 5 MB) before being ignored.
 */
export const BODY_MAX_BYTES = 512 * 1024;

/** {@link BODY_MAX_BYTES} as the OpenAPI document and the 413 answer say it. */
export const BODY_MAX_TEXT = `${BODY_MAX_BYTES / 1024} KiB`;

/**
 * How the body parser's bounds read in the OpenAPI document (the `BadRequest` answer and the write
 * operations' descriptions); docs/operations.md "Limits" states the same figures.
 */
export const JSON_BOUNDS_TEXT = `nested at most ${JSON_MAX_DEPTH} levels deep, at most ${JSON_MAX_ITEMS.toLocaleString('en-GB')} items in any array or object`;
