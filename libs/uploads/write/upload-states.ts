import type { StreamSnapshot } from '@app/event-sourcing';
import type { UploadState } from '@app/uploads/decider';

/** How many uploads' states {@link UploadStates} keeps: the uploads being worked on and watched. */
export const UPLOAD_STATES_KEPT = 64;

/**
 * The states of the uploads read lately in this process, each with the stream head it was folded
 * to, the least recently read dropped past {@link UPLOAD_STATES_KEPT}: a later read of the upload
 * (a status poll, the next batch of a submit) reads and folds only the events after that head,
 * never again the file's event. Holds no file; the messages of a state are dropped by its
 * `UploadPurged` as a fresh read's are.
 */
export class UploadStates {
  private readonly kept = new Map<string, StreamSnapshot<UploadState>>();

  /** The state kept for `uploadId` (made the most recently read), or null. */
  get(uploadId: string): StreamSnapshot<UploadState> | null {
    const snapshot = this.kept.get(uploadId);
    if (snapshot === undefined) return null;
    this.kept.delete(uploadId);
    this.kept.set(uploadId, snapshot);
    return snapshot;
  }

  /** Keeps `snapshot` as `uploadId`'s, dropping the least recently read past the bound. */
  set(uploadId: string, snapshot: StreamSnapshot<UploadState>): void {
    this.kept.delete(uploadId);
    this.kept.set(uploadId, snapshot);
    if (this.kept.size > UPLOAD_STATES_KEPT) this.kept.delete(this.kept.keys().next().value!);
  }
}
