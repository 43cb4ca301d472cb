/**
 * The bounds of an upload, after the real service's bulk add (a file under 1 MB) and this
 * service's own bound on rows. The CSV layer refuses a file past them before it is received; the
 * decider refuses a check that reports more rows.
 */

/** Most bytes in one uploaded file: 1 MiB (1,048,576), counted on the body as sent, BOM included. */
export const UPLOAD_BYTES_MAX = 1_048_576;

/** Most trainee rows in one uploaded file (wholly blank rows not counted). */
export const UPLOAD_ROWS_MAX = 1000;

/**
 * Most records after the header in one uploaded file, blank ones included: twice the trainee rows,
 * room for a blank line between each two, and a bound on the work a file of blank lines costs.
 */
export const UPLOAD_RECORDS_MAX = 2 * UPLOAD_ROWS_MAX;

/** Uploads of a provider still waiting for their check (`pending`), by default; one more is refused (429). */
export const UPLOAD_PENDING_MAX_DEFAULT = 5;

/** Bytes of files a provider may upload in a UTC day, by default: 10 MiB (10,485,760), ten of the largest files. */
export const UPLOAD_DAILY_BYTES_DEFAULT = 10 * UPLOAD_BYTES_MAX;

/** Days after its last event that an upload not being submitted is purged (its data key destroyed). */
export const UPLOAD_RETENTION_DAYS = 30;
