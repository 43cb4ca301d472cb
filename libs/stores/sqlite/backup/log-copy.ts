import { Database } from '@app/sqlite';
import { join } from 'node:path';
import { faultLine, leafHash, MerkleRoot } from '@app/audit';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import type { LogCopy } from '@app/backup';
import { verifyInThreads } from '../event-log/threaded-verify';

/**
 * What the audit finds in the copy of the embedded log in `dir` (`<dir>/events.sqlite`, a
 * backup's; `LogCopy`): every chain checked (`verifyInThreads`, read-only) and its heads summed up.
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
