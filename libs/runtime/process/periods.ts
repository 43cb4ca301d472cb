import ms from 'ms';
import { SANDBOX_REGISTRY_MAX_DELAY_MS } from '@app/registry';

/** The periodic work a process's configuration schedules (docs/operations.md "Configuration"): its periods, and the backups'. */

/** The shortest period between scheduled digests: each reads what moved since the last, so more often gains nothing. */
export const AUDIT_DIGEST_MIN_MS = 60_000;

/**
 * A period as `ms` reads it (`90s`, `15m`, `1h`, `1d`, or a number of ms), from
 * {@link AUDIT_DIGEST_MIN_MS} to 2147483647 ms (about 24.8 days, the longest a timer waits), in
 * ms; null for an empty text; a string naming what is wrong otherwise.
 */
export function parsePeriod(text: string): number | null | string {
  const t = text.trim();
  if (t === '') return null;
  const n = /^\d+$/.test(t) ? Number(t) : ms(t as ms.StringValue);
  if (typeof n !== 'number' || !Number.isFinite(n) || n < AUDIT_DIGEST_MIN_MS || n > SANDBOX_REGISTRY_MAX_DELAY_MS)
    return `must be a period such as 15m, 1h or 1d, from 1 minute to 24 days, got '${t}'`;
  return Math.round(n);
}

/** The variables a backup schedule is read from, as `envalid` cleaned them. */
type BackupVariables = Record<'BACKUP_EVERY' | 'BACKUP_DIR' | 'EVENTSTORE_URL' | 'MONGODB_URL' | 'AUDIT_SIGNING_KEY_FILE', string> & {
  BACKUP_KEEP: number;
};

/** A backup schedule (`AppConfig.backups`). */
export interface BackupScheduleConfig {
  everyMs: number;
  keep: number;
  dir: string;
  signingKeyFile: string | null;
}

/**
 * `BACKUP_EVERY` (a period, {@link parsePeriod}), `BACKUP_KEEP` (at least 1) and `BACKUP_DIR`
 * (required with it) as the schedule takes them (docs/operations.md "Backups and restore"); null
 * when `BACKUP_EVERY` is unset; a sentence naming the variable otherwise. Refused beside
 * `EVENTSTORE_URL` or `MONGODB_URL`: it backs up the embedded stores only.
 */
export function backupSchedule(clean: BackupVariables): BackupScheduleConfig | null | string {
  const every = parsePeriod(clean.BACKUP_EVERY);
  if (typeof every === 'string') return `BACKUP_EVERY: ${every}`;
  if (every === null) return null;
  if (clean.BACKUP_DIR.trim() === '') return 'BACKUP_DIR: required with BACKUP_EVERY, the directory the backups go into';
  if (clean.EVENTSTORE_URL || clean.MONGODB_URL)
    return 'BACKUP_EVERY: backs up the embedded stores only; back up EventStoreDB and MongoDB with their own tools (docs/operations.md)';
  if (clean.BACKUP_KEEP < 1) return `BACKUP_KEEP: must keep at least 1 backup, got ${clean.BACKUP_KEEP}`;
  return {
    everyMs: every,
    keep: clean.BACKUP_KEEP,
    dir: clean.BACKUP_DIR.trim(),
    signingKeyFile: clean.AUDIT_SIGNING_KEY_FILE.trim() || null,
  };
}
