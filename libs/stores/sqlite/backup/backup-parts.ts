import type { BackupPart } from '@app/backup';

/**
 * What a backup copies, in the order it is copied. The stores the log cannot make again come
 * first, so none of them is ahead of the log's copy (a dispatcher's position, a kept answer, the
 * latest digest's tree all refer to events at or below it); then the log; then the uploads' files and
 * row messages, so every upload of the log's copy has its parts in the copy (each is stored before
 * the event that names it, and deleted only by the upload's purge, which destroys its key first);
 * then the key store, so every sealed event and part of the copies has its key in the key store's
 * copy, unless its trainee was erased or its upload purged in between (its key then reads erased).
 * The read models (`read-models.sqlite`) are not copied: a restore rebuilds them from the log
 * (`REBUILT_ON_RESTORE`, libs/backup). Backups made before
 * `state.sqlite` held the first part's tables in a `read-models.sqlite` of their own; a restore
 * copies it, and the first open moves them into `state.sqlite` (`moveStateOutOfReadStore`).
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
