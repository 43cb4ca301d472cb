import { userInfo } from 'node:os';
import {
  digestSince,
  DigestSchedule,
  loadAuditSigningKey,
  logMovedSince,
  type DigestScheduleLogger,
  type ScheduledDigest,
} from '@app/runtime/audit';
import type { AppConfig } from '@app/runtime/process';
import { digestInThread } from '@app/stores/sqlite';
import { openDigestTreeStore, type Stores } from './open-stores';

/** Who the scheduled digests are recorded as signed by (the `by` of `AuditDigestSigned`). */
export const SCHEDULED_DIGEST_SIGNER = 'schedule';

/**
 * The digest schedule of the configured stores (docs/DESIGN.md "Scheduled digests"), not started;
 * null when `AUDIT_DIGEST_EVERY` is unset. The signing key is read now (`AUDIT_SIGNING_KEY_FILE`;
 * the sandbox makes its own, and `logger` says so), so a bad key stops the process at start.
 * Each run first asks, on the caller's thread, whether any stream but `audit-digests` moved since
 * the kept digest (a few events read: an idle log costs nothing more); only then it signs: on the
 * embedded event store in a thread of its own (`digestInThread`), elsewhere in this process.
 * The caller stops the schedule before it closes `stores`.
 */
export async function openDigestSchedule(
  config: Pick<AppConfig, 'dataDir' | 'appEnv' | 'auditDigest'>,
  stores: Stores,
  logger: DigestScheduleLogger,
): Promise<{ schedule: DigestSchedule; close(): Promise<void> } | null> {
  if (!config.auditDigest) return null;
  const key = loadAuditSigningKey({
    dataDir: config.dataDir,
    signingKeyFile: config.auditDigest.signingKeyFile,
    production: config.appEnv === 'production',
  });
  if (key.created) logger.warn({ file: key.created }, 'made an audit signing key for the sandbox; production needs AUDIT_SIGNING_KEY_FILE');
  const trees = await openDigestTreeStore(config, stores);
  const store = stores.storedLog;
  const by = `${SCHEDULED_DIGEST_SIGNER} (${userInfo().username})`;
  const run = async (): Promise<ScheduledDigest | null> => {
    const kept = await trees.latest();
    if (kept && !(await logMovedSince(store, kept.digest.position))) return null;
    if (stores.backends.eventStore === 'sqlite') return digestInThread(config.dataDir, key.privateKey, by);
    return digestSince({ store, recordIn: stores.eventStore, trees, privateKey: key.privateKey, by });
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
