import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REGISTRATION_GUARD_STREAM_PREFIX } from '@app/trainees/decider';
import { openPrivateDatabase } from '@app/sqlite';
import { AUDIT_FILE } from '../sqlite-digest-tree';
import { SCHEMA_SQL } from './schema';

const EVENTS_FILE = 'events.sqlite';

export interface GuardStreamsForgotten {
  streams: number;
  /** Their events. */
  events: number;
  /** Heads deleted from the latest digest's kept tree (`audit.sqlite`). */
  keptHeads: number;
  /** Whose WAL a reader held: their deleted pages may still be in it. */
  walHeld: string[];
}

/**
 * Deletes the duplicate guard streams (`registrationguard-…`, each claim naming its trainee) from the embedded log in place
 * (docs/operations.md "Forgetting the guard streams of an older log"): one transaction lifts the no-delete trigger, deletes and puts it
 * back, so no connection sees the log without it; then `VACUUM` and a WAL truncation. Run with the API and projector stopped. Other
 * streams' chains are untouched; a digest signed before no longer matches (`audit verify --digest` names the heads missing) and the
 * kept tree loses those heads' rows. Safe to run again. Throws when `dataDir` holds no log.
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

function prepare(db: ReturnType<typeof openPrivateDatabase>): void {
  db.pragma('journal_mode = WAL');
  db.pragma('secure_delete = ON');
}

/** False when a reader held the WAL. */
function truncateWal(db: ReturnType<typeof openPrivateDatabase>): boolean {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  return result.busy === 0;
}
