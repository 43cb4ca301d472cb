/** Error bodies of the "Errors" table of docs/spec/trainee-records-api.md and docs/DESIGN.md ruling 4, built in one place. */
export type ErrorEntry = { error: string; message: string };

export function errorsBody(error: string, messages: string[]): { errors: ErrorEntry[] } {
  return { errors: messages.map((message) => ({ error, message })) };
}

/**
 * 422 of the list endpoint: `{message, errors: {param: [messages]}}` (docs/spec/trainee-records-api.md "GET /trainees";
 * docs/reference/API-FACTS.md §14.1).
 */
export class ListQueryInvalid extends Error {
  constructor(readonly errorsByParam: Record<string, string[]>) {
    super('invalid list query');
  }

  body(): { message: string; errors: Record<string, string[]> } {
    const n = Object.values(this.errorsByParam).reduce((sum, list) => sum + list.length, 0);
    return {
      message: `Validation failed: ${n} ${n === 1 ? 'error' : 'errors'} prohibited this request being run`,
      errors: this.errorsByParam,
    };
  }
}

/** 404 of the list endpoint when the requested page has no rows (docs/reference/API-FACTS.md §14.6). */
export class NoTraineesFound extends Error {}

/** 404 of GET /audit/digest before any digest is signed (docs/operations.md "Signed digests"). */
export class AuditDigestNotFound extends Error {
  constructor() {
    super('No audit digest has been signed yet');
  }
}

/** 404 of the reference-data endpoint, with its message (docs/reference/API-FACTS.md §17.3, §17.4). */
export class ReferenceDataNotFound extends Error {}
