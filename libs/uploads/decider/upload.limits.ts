/**
 * The bounds of an upload, after the real service's bulk add (a file under 1 MB) and this
 * service's own bound on rows. The CSV layer refuses a file past them before it is received; the
 * decider refuses a check that reports more rows.
 */

/** Most bytes in one uploaded file: 1 MiB (1,048,576), counted on the body as sent, BOM included. */
export const UPLOAD_BYTES_MAX = 1_048_576;

/** Most trainee rows in one uploaded file (wholly blank rows not counted). */
export const UPLOAD_ROWS_MAX = 1000;

/** Days after its last event that an upload not being submitted is purged (its data key destroyed). */
export const UPLOAD_RETENTION_DAYS = 30;
