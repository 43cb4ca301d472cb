/** The real service's bulk add takes a file under 1 MB; counted on the body as sent, BOM included. */
export const UPLOAD_BYTES_MAX = 1_048_576;

/** Wholly blank rows not counted. */
export const UPLOAD_ROWS_MAX = 1000;

/** Blank ones included: room for a blank line between each two rows, and a bound on what a file of blank lines costs. */
export const UPLOAD_RECORDS_MAX = 2 * UPLOAD_ROWS_MAX;

/** Waiting for their check; one more is refused (429). */
export const UPLOAD_PENDING_MAX_DEFAULT = 5;

/** Per UTC day: ten of the largest files. */
export const UPLOAD_DAILY_BYTES_DEFAULT = 10 * UPLOAD_BYTES_MAX;

/** After its last event, unless being submitted. */
export const UPLOAD_RETENTION_DAYS = 30;
