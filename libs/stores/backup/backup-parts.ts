import { REGISTRY_PM_CHECKPOINT } from '@app/registry';
import type { CopiedTable } from './copy.worker';

/** The manifest's file name inside a backup. */
export const MANIFEST_FILE = 'manifest.json';

/**
 * One file of a backup (docs/operations.md "Backups and restore"): its name, the same in the
 * backup as in `DATA_DIR`; what it holds; and how it is copied: whole (`VACUUM INTO`) or only the
 * tables that cannot be rebuilt from the log.
 */
export interface BackupPart {
  file: string;
  holds: string;
  tables: CopiedTable[] | null;
  /** True for the log: a data dir without it has nothing to back up. */
  required: boolean;
}

/**
 * What a backup copies, in the order it is copied. The stores the log cannot make again come
 * first, so none of them is ahead of the log's copy (a dispatcher's position, a kept answer, the
 * latest digest's tree all refer to events at or below it); then the log; then the key store, so
 * every sealed event of the log's copy has its key in the key store's copy, unless its trainee was
 * erased in between (its key then reads erased). The read models are not copied: a restore
 * rebuilds them from the log ({@link REBUILT_ON_RESTORE}).
 */
export const BACKUP_PARTS: readonly BackupPart[] = [
  {
    file: 'read-models.sqlite',
    holds:
      "idempotency keys and their kept answers; webhook endpoints, deliveries and the dispatcher's position; the registry process manager's position",
    tables: [
      { name: 'idempotency_keys' },
      { name: 'webhook_endpoints' },
      { name: 'webhook_deliveries' },
      { name: 'webhook_dispatcher' },
      { name: 'projection_checkpoints', where: `name = '${REGISTRY_PM_CHECKPOINT}'` },
    ],
    required: false,
  },
  { file: 'schools.sqlite', holds: 'the schools directory', tables: null, required: false },
  { file: 'audit.sqlite', holds: "the latest signed digest's tree", tables: null, required: false },
  { file: 'events.sqlite', holds: 'the event log', tables: null, required: true },
  { file: 'keys.sqlite', holds: "the trainees' data keys", tables: null, required: false },
];

/** What a restore makes again instead of copying, and why it can. */
export const REBUILT_ON_RESTORE: readonly string[] = [
  'the read models (trainees, providers and tokens, the change feed): projected again from the log',
];
