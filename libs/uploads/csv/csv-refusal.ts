/**
 * Why an uploaded file is refused as a whole, before any row is checked; the messages follow the
 * GOV.UK Design System's file upload error messages ("The selected file must be …").
 */
import { DomainError } from '@app/event-sourcing';

export type FileRefusalReason =
  | 'empty'
  | 'too_large'
  | 'not_utf8'
  | 'malformed'
  | 'blank_header'
  | 'duplicate_headers'
  | 'unknown_headers'
  | 'missing_headers'
  | 'no_rows'
  | 'too_many_rows'
  | 'too_many_records'
  | 'too_many_cells';

/**
 * A file refused as a whole (a 4xx, and an error summary on the page): `reason` says why, `headers`
 * names the columns concerned (as written in the file, or the template's names for missing ones),
 * `row` the spreadsheet row concerned where there is one.
 */
export class UploadFileRefused extends DomainError {
  readonly kind = 'UploadFileRefused';
  constructor(
    readonly reason: FileRefusalReason,
    message: string,
    readonly headers: readonly string[] = [],
    readonly row: number | null = null,
  ) {
    super(message);
  }
}

/** Names a refusal quotes at most: a header row of thousands of names is refused in a sentence, not a page. */
const LISTED_MAX = 10;

/** `'a', 'b' and 'c'`: names quoted and listed for a message; past {@link LISTED_MAX}, the first ones and how many more. */
export function listed(names: readonly string[]): string {
  const quoted = names.slice(0, LISTED_MAX).map((n) => `'${n.length > 60 ? `${n.slice(0, 60)}…` : n}'`);
  if (names.length > LISTED_MAX) return `${quoted.join(', ')} and ${(names.length - LISTED_MAX).toLocaleString('en-GB')} more`;
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}
