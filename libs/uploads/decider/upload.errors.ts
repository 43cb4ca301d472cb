/**
 * The upload decider's errors: values with a type (`kind`), mapped to HTTP in exactly one place,
 * the API's error filter (docs/STYLE.md "Small things that make a codebase pleasant").
 */
import { DomainError } from '@app/event-sourcing';

/** No such upload, or one already purged (404, like any resource of another provider). */
export class UploadNotFound extends DomainError {
  readonly kind = 'UploadNotFound';
  constructor() {
    super('Upload not found');
  }
}

/** Why an upload cannot be submitted yet: not checked, or checked with errors. */
export type NotSubmittableReason = 'not_checked' | 'has_errors';

/** Submitting an upload that is not validated with no errors (422). */
export class UploadNotSubmittable extends DomainError {
  readonly kind = 'UploadNotSubmittable';
  constructor(
    readonly reason: NotSubmittableReason,
    readonly errorCount = 0,
  ) {
    super(
      reason === 'not_checked'
        ? 'The file is still being checked: submit it once its check is complete'
        : `The file has ${errorCount} ${errorCount === 1 ? 'error' : 'errors'}: fix them and upload the file again`,
    );
  }
}

/** What an upload has already become, for a command that needs it otherwise. */
export type UploadConflictReason = 'submitted' | 'cancelled';

/** Submitting or cancelling an upload already submitted or cancelled (409). */
export class UploadConflict extends DomainError {
  readonly kind = 'UploadConflict';
  constructor(readonly reason: UploadConflictReason) {
    super(reason === 'submitted' ? 'The upload has already been submitted' : 'The upload has been cancelled');
  }
}

/**
 * A command the service itself got wrong (rows that do not match the check, a trainee id missing,
 * a purge before its time): never the provider's input, which the CSV layer and the row checks
 * answer first.
 */
export class UploadCommandInvalid extends DomainError {
  readonly kind = 'UploadCommandInvalid';
}
