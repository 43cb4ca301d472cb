import { Database } from '@app/sqlite';
import { join } from 'node:path';
import { faultLine, leafHash, MerkleRoot } from '@app/audit';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import { verifyInThreads } from '@app/stores/sqlite';

/**
 * What the audit finds in a copy of the embedded log (`<dir>/events.sqlite`, a backup's):
 * `position`, its last event's; `events` and `streams`; `headsRoot`, the Merkle root over every
 * stream's head in stream-id order (as a signed digest makes it, docs/DESIGN.md "Signed digests");
 * `schema`, the log's schema version; each chain fault as `audit verify` words it.
 */
export interface LogCopy {
  position: LogPosition;
  events: number;
  streams: number;
  headsRoot: string;
  schema: number;
  faults: string[];
}

/**
 * Checks every chain of the log copy in `dir` (`verifyInThreads`, read-only) and sums up its heads.
 * `onEvents` hears the events checked so far. Rejects when the file is not a database.
 */
export async function auditLogCopy(dir: string, onEvents?: (events: number) => void): Promise<LogCopy> {
  const db = new Database(join(dir, 'events.sqlite'), { readonly: true, fileMustExist: true });
  let position: LogPosition;
  let schema: number;
  try {
    position = logPosition((db.prepare('SELECT MAX(position) FROM events').pluck().get() as number | null) ?? 0);
    schema = db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
  const root = new MerkleRoot();
  const faults: string[] = [];
  const totals = await verifyInThreads(dir, {
    onStream: (head) => root.add(leafHash(head)),
    onFault: (f) => faults.push(faultLine(f)),
    onProgress: onEvents,
  });
  return { position, events: totals.events, streams: totals.streams, headsRoot: root.root(), schema, faults };
}
