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
const PARTIAL = '.partial';

/** Pino-style: context, then message. No personal data: names, positions, sizes, times. */
export interface BackupScheduleLogger {
  info(context: object, message: string): void;
  error(context: object, message: string): void;
}

/** `everyMs` is `BACKUP_EVERY`, `keep` `BACKUP_KEEP`, `dir` `BACKUP_DIR`. */
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
 * Backups of the embedded stores on a schedule, taken by the process that projects (docs/operations.md "Backups and restore"): each run
 * `createBackup` into `<dir>/<time>.partial`, renamed once whole, then all but the newest `keep` and any `.partial` deleted; the erasure
 * ledger made when missing. The next run is due one period after the newest backup (at start: the newest in `dir`), so a restart neither
 * skips nor repeats one; one run at a time; the timer does not keep the process alive; a failed run is logged and the schedule goes on.
 */
export class BackupSchedule {
  private readonly timer: PeriodicRun;
  private lastSuccess: Date | null;
  private readonly startedAt: Date;
  /** Since start. */
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

  /** This run's, else the newest in `BACKUP_DIR`; null: none yet. */
  get lastSuccessAt(): Date | null {
    return this.lastSuccess;
  }

  /** Or since the schedule started when there is none. */
  ageSeconds(): number {
    return (this.now().getTime() - (this.lastSuccess ?? this.startedAt).getTime()) / 1000;
  }

  start(): void {
    if (this.timer.start()) this.logger.info({ every_ms: this.options.everyMs, keep: this.options.keep }, 'backups scheduled');
  }

  /** Waits for a run in progress to end. */
  stop(): Promise<void> {
    return this.timer.stop();
  }

  /** Runs once now (unless one is running), then goes on with the schedule; resolves when this run ends. */
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

/** Finished (a manifest in each), oldest first. */
function finishedBackups(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => BACKUP_NAME.test(n) && existsSync(join(dir, n, MANIFEST_FILE)))
    .sort();
}

/** Its manifest's `created_at`; null when none. */
function newestBackupTime(dir: string): Date | null {
  const newest = finishedBackups(dir).pop();
  if (newest === undefined) return null;
  const manifest = readManifest(join(dir, newest));
  return typeof manifest === 'string' ? null : new Date(manifest.created_at);
}

/** And every `.partial` left behind; returns how many. */
function prune(dir: string, keep: number): number {
  const old = finishedBackups(dir).slice(0, -keep);
  const partials = readdirSync(dir).filter((n) => n.endsWith(PARTIAL));
  for (const n of [...old, ...partials]) rmSync(join(dir, n), { recursive: true, force: true });
  return old.length + partials.length;
}

/** The newest backup's time (0 for none), its age and the period, read at each scrape (docs/observability.md); the alert compares them. */
export function observeBackups(metrics: Metrics, schedule: BackupSchedule, everyMs: number): void {
  const last = metrics.gauge('trainee_records_backup_last_success_timestamp_seconds');
  const age = metrics.gauge('trainee_records_backup_age_seconds');
  metrics.gauge('trainee_records_backup_interval_seconds').set(everyMs / 1000);
  metrics.onScrape(async () => {
    last.set(schedule.lastSuccessAt ? schedule.lastSuccessAt.getTime() / 1000 : 0);
    age.set(schedule.ageSeconds());
  });
}
