/**
 * What the embedded stores keep on disk (BENCHMARKS.md "What it measures"): each SQLite file of the data dir with its `-wal` and
 * `-shm` companions, in bytes, and per trainee and per event, counted from the log as it stands. Read while the API runs, after the
 * scenarios' writes: the WAL is part of what a write costs.
 */
import Database from 'better-sqlite3';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The read models' bound per trainee and the log's per event, in bytes, WAL included. */
export const STORAGE_TARGETS = { readModelsPerTrainee: 6 * 1024, eventsPerEvent: 1024 } as const;

export interface StorageResult {
  trainees: number;
  events: number;
  /** By file name (`events.sqlite`, …): the file, its WAL and its shared-memory index together, in bytes. */
  files: Record<string, number>;
  /** `read-models.sqlite` ÷ trainees, bytes. */
  readModelsPerTrainee: number;
  /** `events.sqlite` ÷ events, bytes. */
  eventsPerEvent: number;
  /** `read-models.sqlite`'s pages in use (free pages left out: a rebuild's dropped store leaves them) ÷ trainees, bytes. */
  readModelsInUsePerTrainee?: number;
  /** Its largest tables and indexes (dbstat), bytes per trainee, largest first. */
  readModelsByObject?: Record<string, number>;
}

/** Tables and indexes listed by {@link StorageResult.readModelsByObject}. */
const LARGEST_OBJECTS = 6;

/** Null where the data dir has no `events.sqlite` (EventStoreDB and MongoDB keep their own files). */
export function measureStorage(dataDir: string): StorageResult | null {
  const log = join(dataDir, 'events.sqlite');
  if (!existsSync(log)) return null;
  const files: Record<string, number> = {};
  for (const name of readdirSync(dataDir).filter((f) => f.endsWith('.sqlite'))) {
    files[name] = ['', '-wal', '-shm']
      .map((suffix) => join(dataDir, name + suffix))
      .filter((f) => existsSync(f))
      .reduce((sum, f) => sum + statSync(f).size, 0);
  }
  const db = new Database(log, { readonly: true, fileMustExist: true });
  let counts: { events: number; trainees: number };
  try {
    counts = db
      .prepare<[], { events: number; trainees: number }>(
        `SELECT COUNT(*) AS events, COUNT(DISTINCT CASE WHEN stream_id LIKE 'trainee-%' THEN stream_id END) AS trainees FROM events`,
      )
      .get()!;
  } finally {
    db.close();
  }
  const perTrainee = (bytes: number): number => bytes / Math.max(1, counts.trainees);
  return {
    ...counts,
    files,
    readModelsPerTrainee: perTrainee(files['read-models.sqlite'] ?? 0),
    eventsPerEvent: (files['events.sqlite'] ?? 0) / Math.max(1, counts.events),
    ...readModelsInUse(join(dataDir, 'read-models.sqlite'), perTrainee),
  };
}

/** The read store's pages in use and its largest objects, per trainee; nothing where the file or SQLite's dbstat is missing. */
function readModelsInUse(file: string, perTrainee: (bytes: number) => number): Partial<StorageResult> {
  if (!existsSync(file)) return {};
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const pages = (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
    const largest = db
      .prepare<[number], { name: string; bytes: number }>(
        'SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT ?',
      )
      .all(LARGEST_OBJECTS);
    return {
      readModelsInUsePerTrainee: perTrainee(pages * (db.pragma('page_size', { simple: true }) as number)),
      readModelsByObject: Object.fromEntries(largest.map((o) => [o.name, perTrainee(o.bytes)])),
    };
  } catch {
    return {};
  } finally {
    db.close();
  }
}

/** The lines `npm run bench` prints for it. */
export function formatStorage(s: StorageResult): string {
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;
  const files = Object.entries(s.files)
    .map(([name, bytes]) => `${name} ${(bytes / 2 ** 20).toFixed(1)} MiB`)
    .join(', ');
  return (
    `storage: ${s.trainees.toLocaleString('en-GB')} trainees, ${s.events.toLocaleString('en-GB')} events; ${files}\n` +
    `  read models ${kb(s.readModelsPerTrainee)} a trainee, the log ${kb(s.eventsPerEvent)} an event (WAL included)` +
    (s.readModelsInUsePerTrainee === undefined
      ? ''
      : `\n  read models in use ${kb(s.readModelsInUsePerTrainee)} a trainee: ` +
        Object.entries(s.readModelsByObject ?? {})
          .map(([name, bytes]) => `${name} ${kb(bytes)}`)
          .join(', '))
  );
}
