export { MANIFEST_FILE, REBUILT_ON_RESTORE, type BackupFiles, type BackupPart, type LogCopy, type SealedCheck } from './backup-files.port';
export { BackupSchedule, observeBackups, type BackupScheduleLogger, type BackupScheduleOptions } from './backup-schedule';
export { BackupRefused, createBackup, type BackupProgress, type CreateBackupOptions } from './create-backup';
export {
  appendToLedger,
  keepLedgerIn,
  LEDGER_FILE,
  ledgerIn,
  ledgerKey,
  LedgerUnreadable,
  readLedger,
  type LedgerEntry,
  type LedgerRead,
} from './erasure-ledger';
export { BACKUP_FORMAT, madeUnder, readManifest, type BackupManifest, type ManifestFile } from './manifest';
export {
  LEDGER_ERASER,
  manifestUnder,
  reapplyErasures,
  restoreFiles,
  type ReappliedErasures,
  type RestoredFiles,
  type RestoreOptions,
} from './restore-backup';
export { checkBackupFiles, verificationSummary, verifyBackup, type BackupVerification } from './verify-backup';
export { keptBackupsIn } from './kept-backups';
