/** The trainees' and uploads' data keys (`DataKeys`), wrapped again under the current version read under the shared lock. */
export interface WrappedDataKeys {
  /** `batch` keys a read; `changed`: erased or rewrapped elsewhere meanwhile; `before`: keys per version before (0: no known shape). */
  rewrapAll(batch?: number): Promise<{ rewrapped: number; current: number; changed: number; before: Map<number, number> }>;
  /** Keys per version (0: no known shape); erased ones are not counted. */
  versionCounts(): Promise<Map<number, number>>;
}

/** The webhook endpoints' signing secrets (`WebhookOperations`). */
export interface SealedWebhookSecrets {
  resealSecrets(): Promise<{ resealed: number; current: number; before: Map<number | 'plain', number> }>;
  /** Current secrets per version (`plain`: stored in plain text). */
  secretVersions(): Promise<Map<number | 'plain', number>>;
}

/** `name`: the backup's directory; `why`: in words, how many keys and secrets it holds under the version. */
export interface BackupNeed {
  name: string;
  why: string;
}

/** The backups under `BACKUP_DIR`. */
export interface KeptBackups {
  readonly dir: string;
  /** Backups that would no longer open without `version`, and those that could not be checked (unfinished, unreadable). */
  needing(version: number): Promise<BackupNeed[]>;
}

/** `dataKeys` null where no personal data is sealed. */
export interface RotationPorts {
  dataKeys: WrappedDataKeys | null;
  secrets: SealedWebhookSecrets;
}

/** `backups` null when `BACKUP_DIR` is not set. */
export interface RetirementPorts extends RotationPorts {
  backups: KeptBackups | null;
}
