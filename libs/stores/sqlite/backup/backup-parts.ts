import type { BackupPart } from '@app/backup';

/**
 * In copy order: the stores the log cannot make again first (their positions refer to events at or below the log's copy); the log;
 * the uploads' parts (each stored before the event naming it); the key store last, so every sealed event and part has its key unless
 * erased or purged in between. The read models are rebuilt on restore. Older backups kept `state.sqlite`'s tables in a
 * `read-models.sqlite`; a restore copies it and the first open moves them (`moveStateOutOfReadStore`).
 */
export const BACKUP_PARTS: readonly BackupPart[] = [
  {
    file: 'state.sqlite',
    holds:
      "webhook endpoints, the sent deliveries' attempts without their payloads, and the dispatcher's position before the first pending one; " +
      "the registry process manager's position (no idempotency key or kept answer)",
    how: 'state',
    required: false,
  },
  { file: 'schools.sqlite', holds: 'the schools directory', how: 'whole', required: false },
  { file: 'audit.sqlite', holds: "the latest signed digest's tree", how: 'whole', required: false },
  { file: 'events.sqlite', holds: 'the event log', how: 'whole', required: true },
  { file: 'uploads.sqlite', holds: "the uploads' files and row messages, sealed with their data keys", how: 'whole', required: false },
  { file: 'keys.sqlite', holds: "the trainees' and uploads' data keys", how: 'whole', required: false },
];
