/**
 * An upload's parts (`file`, `messages-<sha256>`), sealed with its data key, outside the log so a purge deletes them (docs/DESIGN.md
 * "Uploads"). Adapters: SQLite `uploads.sqlite`, MongoDB `upload_parts`.
 */
export interface UploadFiles {
  /** Durable before it resolves; replaces a part of that name. `part`: 1 to 100 characters. */
  put(uploadId: string, part: string, bytes: Uint8Array): Promise<void>;
  /** Null when there is no such part. */
  get(uploadId: string, part: string): Promise<Uint8Array | null>;
  /** In name order. */
  parts(uploadId: string): Promise<string[]>;
  /** Leaves none of their bytes in the store's files (SQLite: zeroed, WAL truncated; throws when a reader held the WAL). Safe to repeat. */
  delete(uploadId: string): Promise<number>;
  close(): Promise<void>;
}

export const FILE_PART = 'file';

/** Named by `UploadChecked.messages_sha256`. */
export function messagesPart(sha256: string): string {
  return `messages-${sha256}`;
}
