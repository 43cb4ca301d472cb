import type { StreamSnapshot } from '@app/event-sourcing';
import type { UploadState } from '@app/uploads/decider';

/** The uploads being worked on and watched. */
export const UPLOAD_STATES_KEPT = 64;

/**
 * States of the uploads read lately, each with the head it was folded to, so a later read (a status poll, a submit's next batch) folds
 * only what came after; least recently read dropped first. Holds no file.
 */
export class UploadStates {
  private readonly kept = new Map<string, StreamSnapshot<UploadState>>();

  /** Makes it the most recently read; null when none. */
  get(uploadId: string): StreamSnapshot<UploadState> | null {
    const snapshot = this.kept.get(uploadId);
    if (snapshot === undefined) return null;
    this.kept.delete(uploadId);
    this.kept.set(uploadId, snapshot);
    return snapshot;
  }

  set(uploadId: string, snapshot: StreamSnapshot<UploadState>): void {
    this.kept.delete(uploadId);
    this.kept.set(uploadId, snapshot);
    if (this.kept.size > UPLOAD_STATES_KEPT) this.kept.delete(this.kept.keys().next().value!);
  }
}
