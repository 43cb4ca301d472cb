import type { ServiceKeyMaterial } from '@app/runtime/process';
import type { KeyObject } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PeriodicRun } from '@app/event-sourcing';
import type { Metrics } from '@app/runtime/telemetry';
import { MANIFEST_FILE, type BackupFiles } from './backup-files.port';
import { createBackup } from './create-backup';
import { keepLedgerIn } from './erasure-ledger';
import { readManifest } from './manifest';

/** A scheduled backup's directory name: its time, UTC, safe in a file name (`2026-11-28T12-00-00-000Z`). */
const BACKUP_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
/** What a backup being written is named until it is whole. */
const PARTIAL = '.partial';

/** Where the schedule says what it did (pino-style: context, then message). No personal data: names, positions, sizes, times. */
export interface BackupScheduleLogger {
  info(context: object, message: string): void;
  error(context: object, message: string): void;
}

/**
 * What {@link BackupSchedule} takes: the stores' files it copies, the data dir it backs up,
 * `BACKUP_DIR`, `BACKUP_EVERY` (ms), `BACKUP_KEEP`, the keys.
 */
export interface BackupScheduleOptions {
  files: BackupFiles;
  dataDir: string;
  dir: string;
  everyMs: number;
  keep: number;
  serviceKey: ServiceKeyMaterial;
  signingKey: KeyObject | null;
  now?: () => Date;
}

/**
 * Backups of the embedded stores on a schedule (`BACKUP_EVERY`, `BACKUP_KEEP`, `BACKUP_DIR`;
 * docs/operations.md "Backups and restore"), taken by the projector process: each run is
 * `createBackup` (its copies and checks on threads of their own) into `<dir>/<time>.partial`,
 * renamed `<dir>/<time>` once whole, then every backup but the newest `keep` deleted, and any
 * `.partial` a crash left; the erasure ledger of `dir` is made, empty, when there is none
 * (`keepLedgerIn`). The next run is due one period after the newest backup (at start:
 * the newest in `dir`), so a restart neither skips nor repeats one; one run at a time; the timer
 * does not keep the process alive. A failed run is logged and the schedule goes on.
 */
export class BackupSchedule {
  private readonly timer: PeriodicRun;
  private lastSuccess: Date | null;
  private readonly startedAt: Date;
  /** Runs that made a backup, and runs that failed, since start. */
  readonly counts = { taken: 0, failed: 0 };

  constructor(
    private readonly options: BackupScheduleOptions,
    private readonly logger: BackupScheduleLogger,
  ) {
    this.startedAt = this.now();
    this.lastSuccess = newestBackupTime(options.dir);
    // Due one period after the newest backup: at once when it is older.
    const due = () => (this.lastSuccess ? Math.max(0, options.everyMs - this.ageSeconds() * 1000) : options.everyMs);
    this.timer = new PeriodicRun(() => this.once(), due);
  }

  private now(): Date {
    return this.options.now ? this.options.now() : new Date();
  }

  /** When the newest backup was made (this run's, else the newest in `BACKUP_DIR`); null: none yet. */
  get lastSuccessAt(): Date | null {
    return this.lastSuccess;
  }

  /** Seconds since the newest backup, or since the schedule started when there is none. */
  ageSeconds(): number {
    return (this.now().getTime() - (this.lastSuccess ?? this.startedAt).getTime()) / 1000;
  }

  /** Starts the schedule: the first run one period after the newest backup (at once when it is older). */
  start(): void {
    if (this.timer.start()) this.logger.info({ every_ms: this.options.everyMs, keep: this.options.keep }, 'backups scheduled');
  }

  /** Stops the schedule and waits for a run in progress to end. */
  stop(): Promise<void> {
    return this.timer.stop();
  }

  /** Runs once now (when none is running), then goes on with the schedule; resolves when this run ends. */
  runNow(): Promise<void> {
    return this.timer.runNow();
  }

  private async once(): Promise<void> {
    const started = this.now();
    const name = started.toISOString().replace(/[:.]/g, '-');
    const partial = join(this.options.dir, `${name}${PARTIAL}`);
    try {
      keepLedgerIn(this.options.dir);
      const { manifest, faults } = await createBackup(this.options.files, this.options.dataDir, partial, {
        serviceKey: this.options.serviceKey,
        signingKey: this.options.signingKey,
        now: () => started,
      });
      renameSync(partial, join(this.options.dir, name));
      this.lastSuccess = started;
      this.counts.taken++;
      const pruned = prune(this.options.dir, this.options.keep);
      const bytes = manifest.files.reduce((sum, f) => sum + f.bytes, 0);
      const seconds = Number(((this.now().getTime() - started.getTime()) / 1000).toFixed(3));
      this.logger.info(
        { backup: name, position: manifest.log.position, bytes, seconds, pruned, chain_faults: faults.length },
        'backup taken',
      );
    } catch (err) {
      this.counts.failed++;
      rmSync(partial, { recursive: true, force: true });
      this.logger.error({ backup: name, err: err instanceof Error ? err.message : String(err) }, 'backup failed; the schedule goes on');
    }
  }
}

/** The finished scheduled backups of `dir` (a manifest in each), oldest first. */
function finishedBackups(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => BACKUP_NAME.test(n) && existsSync(join(dir, n, MANIFEST_FILE)))
    .sort();
}

/** When the newest finished backup of `dir` was made (its manifest's `created_at`); null when none. */
function newestBackupTime(dir: string): Date | null {
  const newest = finishedBackups(dir).pop();
  if (newest === undefined) return null;
  const manifest = readManifest(join(dir, newest));
  return typeof manifest === 'string' ? null : new Date(manifest.created_at);
}

/** Deletes every finished backup of `dir` but the newest `keep`, and every `.partial` left behind; returns how many. */
function prune(dir: string, keep: number): number {
  const old = finishedBackups(dir).slice(0, -keep);
  const partials = readdirSync(dir).filter((n) => n.endsWith(PARTIAL));
  for (const n of [...old, ...partials]) rmSync(join(dir, n), { recursive: true, force: true });
  return old.length + partials.length;
}

/**
 * Serves the schedule's state on `metrics` (docs/observability.md): the newest backup's time
 * (`trainee_records_backup_last_success_timestamp_seconds`, 0 for none), its age and the period,
 * read at each scrape; the alert compares the two.
 */
export function observeBackups(metrics: Metrics, schedule: BackupSchedule, everyMs: number): void {
  const last = metrics.gauge('trainee_records_backup_last_success_timestamp_seconds');
  const age = metrics.gauge('trainee_records_backup_age_seconds');
  metrics.gauge('trainee_records_backup_interval_seconds').set(everyMs / 1000);
  metrics.onScrape(async () => {
    last.set(schedule.lastSuccessAt ? schedule.lastSuccessAt.getTime() / 1000 : 0);
    age.set(schedule.ageSeconds());
  });
}
