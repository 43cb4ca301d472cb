import type { Database } from '@app/sqlite';
import { metadataText } from '../packed-metadata';

/**
 * What a test that plays someone with the files needs of `events.metadata`, stored as text or packed (../packed-metadata.ts): the text
 * of one event's, and a change to it written back as text (a stored form every reader takes). Undefined / Error where there is no row.
 */

/** The metadata text of `streamId`'s event at `revision`, or undefined. */
export function storedMetadata(db: Database.Database, streamId: string, revision: number): string | undefined {
  const row = db.prepare('SELECT metadata FROM events WHERE stream_id = ? AND revision = ?').pluck().get(streamId, revision) as
    string | Buffer | undefined;
  return row === undefined ? undefined : metadataText(row);
}

/** Rewrites the event's metadata text by `change` (the append-only triggers dropped by the caller); Error when there is no such event. */
export function changeStoredMetadata(db: Database.Database, streamId: string, revision: number, change: (text: string) => string): void {
  const text = storedMetadata(db, streamId, revision);
  if (text === undefined) throw new Error(`no event ${streamId}@${revision}`);
  db.prepare('UPDATE events SET metadata = ? WHERE stream_id = ? AND revision = ?').run(change(text), streamId, revision);
}
