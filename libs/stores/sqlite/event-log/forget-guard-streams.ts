import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REGISTRATION_GUARD_STREAM_PREFIX } from '@app/trainees/decider';
import { openPrivateDatabase } from '@app/sqlite';
import { AUDIT_FILE } from '../sqlite-digest-tree';
import { SCHEMA_SQL } from './schema';

/** The event log's file in the data directory. */
const EVENTS_FILE = 'events.sqlite';

/** What {@link forgetGuardStreams} did. */
export interface GuardStreamsForgotten {
  /** Guard streams deleted from the log. */
  streams: number;
  /** Their events. */
  events: number;
  /** Heads of guard streams deleted from the latest digest's kept tree (`audit.sqlite`). */
  keptHeads: number;
  /** Files whose WAL could not be truncated because a reader held it (their deleted pages may still be in the WAL). */
  walHeld: string[];
}

/**
 * Deletes the duplicate guard streams (`registrationguard-…`, named by a plain SHA-256 or a keyed
 * hash of the duplicate rule's key, each claim naming its trainee) from the embedded log in
 * `dataDir`, in place (docs/DESIGN.md property 3; docs/operations.md "Forgetting the guard streams
 * of an older log"). One transaction lifts the log's no-delete trigger, deletes every event of
 * those streams and puts the trigger back, so no other connection ever sees the log without it;
 * then the file is rewritten (`VACUUM`: the log's writers leave stale copies of cells in pages they
 * split, which `secure_delete` alone would not reach) and its WAL truncated. Run it with the API and
 * the projector stopped: the rewrite waits on no writer for longer than 5 s. Every other stream's
 * chain is untouched (each stream is chained on its own); a digest signed before no longer matches
 * the log (its root covers the guard streams' heads: `audit verify --digest` names them missing),
 * and the kept tree of the latest digest (`audit.sqlite`) loses those heads' rows, so the names are
 * gone from it too while every other stream's inclusion proof still holds. Safe to run again
 * (nothing left: zeros). Throws when `dataDir` holds no log.
 */
export function forgetGuardStreams(dataDir: string): GuardStreamsForgotten {
  const eventsFile = join(dataDir, EVENTS_FILE);
  if (!existsSync(eventsFile)) throw new Error(`no event log in ${dataDir}`);
  const walHeld: string[] = [];
  const like = `${REGISTRATION_GUARD_STREAM_PREFIX}%`;
  const log = openPrivateDatabase(eventsFile);
  let streams = 0;
  let events = 0;
  try {
    prepare(log);
    const deleted = log
      .transaction(() => {
        const count = log
          .prepare<[string], { streams: number; events: number }>(
            `SELECT count(DISTINCT stream_id) AS streams, count(*) AS events FROM events WHERE stream_id LIKE ?`,
          )
          .get(like)!;
        if (count.events === 0) return count;
        log.exec('DROP TRIGGER events_no_delete');
        log.prepare(`DELETE FROM events WHERE stream_id LIKE ?`).run(like);
        log.exec(SCHEMA_SQL);
        return count;
      })
      .immediate();
    ({ streams, events } = deleted);
    // The log's writers run without secure_delete: pages they split keep stale copies of cells; a rewrite leaves none.
    if (events > 0) log.exec('VACUUM');
    if (!truncateWal(log)) walHeld.push(EVENTS_FILE);
  } finally {
    log.close();
  }
  let keptHeads = 0;
  const auditFile = join(dataDir, AUDIT_FILE);
  if (existsSync(auditFile)) {
    const audit = openPrivateDatabase(auditFile);
    try {
      prepare(audit);
      const hasHeads = audit.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'digest_heads'`).get();
      if (hasHeads) keptHeads = audit.prepare(`DELETE FROM digest_heads WHERE stream_id LIKE ?`).run(like).changes;
      if (keptHeads > 0) audit.exec('VACUUM');
      if (!truncateWal(audit)) walHeld.push(AUDIT_FILE);
    } finally {
      audit.close();
    }
  }
  return { streams, events, keptHeads, walHeld };
}

/** WAL, a wait for other writers, and `secure_delete` on `db`. */
function prepare(db: ReturnType<typeof openPrivateDatabase>): void {
  db.pragma('journal_mode = WAL');
  db.pragma('secure_delete = ON');
}

/** Copies the WAL into the file and truncates it; false when a reader held it. */
function truncateWal(db: ReturnType<typeof openPrivateDatabase>): boolean {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  return result.busy === 0;
}
