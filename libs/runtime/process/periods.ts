import ms from 'ms';
import { SANDBOX_REGISTRY_MAX_DELAY_MS } from '@app/registry';

/** Each digest reads what moved since the last, so more often gains nothing. */
export const AUDIT_DIGEST_MIN_MS = 60_000;

/** `90s`, `15m`, `1h`, `1d` or ms, {@link AUDIT_DIGEST_MIN_MS} to 2^31 − 1 ms (a timer's longest); null when empty; else why not. */
export function parsePeriod(text: string): number | null | string {
  const t = text.trim();
  if (t === '') return null;
  const n = /^\d+$/.test(t) ? Number(t) : ms(t as ms.StringValue);
  if (typeof n !== 'number' || !Number.isFinite(n) || n < AUDIT_DIGEST_MIN_MS || n > SANDBOX_REGISTRY_MAX_DELAY_MS)
    return `must be a period such as 15m, 1h or 1d, from 1 minute to 24 days, got '${t}'`;
  return Math.round(n);
}

/** As `envalid` cleaned them. */
type BackupVariables = Record<'BACKUP_EVERY' | 'BACKUP_DIR' | 'EVENTSTORE_URL' | 'MONGODB_URL' | 'AUDIT_SIGNING_KEY_FILE', string> & {
  BACKUP_KEEP: number;
};

export interface BackupScheduleConfig {
  everyMs: number;
  keep: number;
  dir: string;
  signingKeyFile: string | null;
}

/**
 * docs/operations.md "Backups and restore": null when `BACKUP_EVERY` is unset; a sentence naming the variable when wrong, or beside
 * `EVENTSTORE_URL` or `MONGODB_URL` (it backs up the embedded stores only).
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
