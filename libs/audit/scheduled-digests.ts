import { userInfo } from 'node:os';
import type { AuditLog } from './audit-log';
import { digestSince, logMovedSince } from './digest-since';
import { DigestSchedule, type DigestScheduleLogger, type ScheduledDigest } from './digest-schedule';
import { loadAuditSigningKey } from './signing-key';

/** Who the scheduled digests are recorded as signed by (the `by` of `AuditDigestSigned`). */
export const SCHEDULED_DIGEST_SIGNER = 'schedule';

/** What {@link openDigestSchedule} reads of a process's configuration (`AppConfig` has it). */
export interface DigestScheduleConfig {
  dataDir: string;
  appEnv: string;
  /** `AUDIT_DIGEST_EVERY` (ms) and `AUDIT_SIGNING_KEY_FILE`; null or absent: no schedule. */
  auditDigest?: { everyMs: number; signingKeyFile: string | null } | null;
}

/**
 * The digest schedule of a process's log (docs/DESIGN.md "Scheduled digests"), not started; null
 * when `AUDIT_DIGEST_EVERY` is unset. The signing key is read now (`AUDIT_SIGNING_KEY_FILE`; the
 * sandbox makes its own, and `logger` says so), so a bad key stops the process at start
 * (`SigningKeyUnavailable`). Each run first asks, on the caller's thread, whether any stream but
 * `audit-digests` moved since the kept digest (a few events read: an idle log costs nothing more);
 * only then it signs: apart where the store can (`AuditLog.digestApart`: the embedded log's own
 * thread), else in this process (`digestSince`). The caller stops the schedule before it closes
 * the stores `log` was made of.
 */
export async function openDigestSchedule(
  config: DigestScheduleConfig,
  log: AuditLog,
  logger: DigestScheduleLogger,
): Promise<{ schedule: DigestSchedule; close(): Promise<void> } | null> {
  if (!config.auditDigest) return null;
  const key = loadAuditSigningKey({
    dataDir: config.dataDir,
    signingKeyFile: config.auditDigest.signingKeyFile,
    production: config.appEnv === 'production',
  });
  if (key.created) logger.warn({ file: key.created }, 'made an audit signing key for the sandbox; production needs AUDIT_SIGNING_KEY_FILE');
  const trees = await log.openTrees();
  const by = `${SCHEDULED_DIGEST_SIGNER} (${userInfo().username})`;
  const run = async (): Promise<ScheduledDigest | null> => {
    const kept = await trees.latest();
    if (kept && !(await logMovedSince(log.storedLog, kept.digest.position))) return null;
    if (log.digestApart) return log.digestApart(key.privateKey, by);
    return digestSince({ store: log.storedLog, recordIn: log.eventStore, trees, privateKey: key.privateKey, by });
  };
  const schedule = new DigestSchedule(run, config.auditDigest.everyMs, logger);
  return {
    schedule,
    async close() {
      await schedule.stop();
      await trees.close();
    },
  };
}
