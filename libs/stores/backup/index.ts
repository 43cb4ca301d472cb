export { BACKUP_PARTS, MANIFEST_FILE, REBUILT_ON_RESTORE, type BackupPart } from './backup-parts';
export { BackupSchedule, observeBackups, type BackupScheduleLogger, type BackupScheduleOptions } from './backup-schedule';
export { BackupRefused, createBackup, type BackupProgress, type CreateBackupOptions } from './create-backup';
export { appendToLedger, LEDGER_FILE, ledgerIn, LedgerUnreadable, readLedger, type LedgerEntry } from './erasure-ledger';
export { keptBackupsIn } from './backup-key-versions';
export { BACKUP_FORMAT, readManifest, type BackupManifest, type ManifestFile } from './manifest';
export { LEDGER_ERASER, reapplyErasures, restoreFiles, type ReappliedErasures, type RestoredFiles } from './restore-backup';
export { verificationSummary, verifyBackup, type BackupVerification } from './verify-backup';
