/**
 * The trainees' and uploads' data keys as a rotation wraps them again and a retirement counts them
 * (`DataKeys`, libs/personal-data). Each key is wrapped again under the keyring's current version as
 * read under its shared lock (`LiveKeys.holding`).
 */
export interface WrappedDataKeys {
  /**
   * Wraps every stored key again under the current version, `batch` keys a read: counts of the
   * keys wrapped again, under the current version already, changed meanwhile (erased or wrapped
   * again elsewhere: left as they are), and the keys under each version before (0: no known shape).
   */
  rewrapAll(batch?: number): Promise<{ rewrapped: number; current: number; changed: number; before: Map<number, number> }>;
  /** How many stored keys are wrapped under each version (0: no known shape); erased ones are not counted. */
  versionCounts(): Promise<Map<number, number>>;
}

/** The webhook endpoints' signing secrets as a rotation seals them again and a retirement counts them (`WebhookOperations`). */
export interface SealedWebhookSecrets {
  /**
   * Seals each endpoint's secret again under the current version where it is not: how many were
   * sealed again and were current already, and how many stood under each version before.
   */
  resealSecrets(): Promise<{ resealed: number; current: number; before: Map<number | 'plain', number> }>;
  /** How many endpoints' current secrets are sealed under each version (`plain`: stored in plain text). */
  secretVersions(): Promise<Map<number | 'plain', number>>;
}

/** A backup that needs a version: its name (its directory's) and why, in words (how many keys and secrets it holds under it). */
export interface BackupNeed {
  name: string;
  why: string;
}

/** The backups kept where the operator keeps them (`BACKUP_DIR`), as a retirement looks at them. */
export interface KeptBackups {
  /** The directory looked in, for what is said. */
  readonly dir: string;
  /**
   * Each backup there that would no longer open (`backup verify`, `backup restore`) without
   * `version`: one holding a data key or an endpoint's secret wrapped under it, and one that could
   * not be checked (unfinished, or unreadable), saying so.
   */
  needing(version: number): Promise<BackupNeed[]>;
}

/** What a rotation wraps again: the data keys (null where no personal data is sealed) and the webhook secrets. */
export interface RotationPorts {
  dataKeys: WrappedDataKeys | null;
  secrets: SealedWebhookSecrets;
}

/** What a retirement counts and looks at: {@link RotationPorts}'s, and the backups (null: `BACKUP_DIR` is not set). */
export interface RetirementPorts extends RotationPorts {
  backups: KeptBackups | null;
}
