/**
 * Where an upload's file and the messages about its rows are kept: outside the append-only log, so
 * that a purge deletes them rather than leaving them, sealed, in the log for ever (docs/DESIGN.md
 * "Uploads"). Each upload has a few named parts (`file`, `messages-<sha256>`), each the bytes as
 * sealed with the upload's own data key (upload-parts.ts). Adapters: SQLite (`uploads.sqlite` under
 * DATA_DIR), MongoDB (collection `upload_parts`).
 */
export interface UploadFiles {
  /**
   * Stores `bytes` as the part `part` of `uploadId`, durably before it resolves (a part of that
   * name already there is replaced). `part`: 1 to 100 characters.
   */
  put(uploadId: string, part: string, bytes: Uint8Array): Promise<void>;
  /** The bytes of the part, or null when the upload has no part of that name. */
  get(uploadId: string, part: string): Promise<Uint8Array | null>;
  /** The names of the upload's parts, in name order ([] for none). */
  parts(uploadId: string): Promise<string[]>;
  /**
   * Deletes every part of `uploadId` so that none of its bytes stays in the store's files (SQLite:
   * zeroed, its WAL truncated; throws when a reader held the WAL too long, and a later call
   * finishes). Returns how many parts it deleted (0 when there were none: safe to repeat).
   */
  delete(uploadId: string): Promise<number>;
  /** Releases the store's connection. */
  close(): Promise<void>;
}

/** The part holding an upload's file. */
export const FILE_PART = 'file';

/** The part holding an upload's row messages, named by their digest (`UploadChecked.messages_sha256`). */
export function messagesPart(sha256: string): string {
  return `messages-${sha256}`;
}
