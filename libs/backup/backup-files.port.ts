import type { LogPosition } from '@app/event-sourcing';

/** One file of a backup (docs/operations.md "Backups and restore"), named as in `DATA_DIR`; `how` is the stores' to read. */
export interface BackupPart {
  file: string;
  holds: string;
  how: 'whole' | 'state';
  /** The log: a data dir without it has nothing to back up. */
  required: boolean;
}

/**
 * What the audit finds in a copy of the log: `headsRoot`, the Merkle root over every stream's head in stream-id order, as a signed
 * digest makes it (docs/DESIGN.md "Signed digests"); `faults` as `audit verify` words them.
 */
export interface LogCopy {
  position: LogPosition;
  events: number;
  streams: number;
  headsRoot: string;
  schema: number;
  faults: string[];
}

/** Opening a log copy's sealed events with its key store copy. */
export interface SealedCheck {
  opened: number;
  erased: number;
  problems: string[];
}

/**
 * What a backup needs of the stores whose files it copies (libs/stores/sqlite): each part copied as of one commit while the service
 * writes on, and the reads that check the copies. The manifest, the checks' verdicts and the erasure ledger are libs/backup's.
 */
export interface BackupFiles {
  /** In copy order. */
  readonly parts: readonly BackupPart[];
  readonly logFile: string;
  /** Its copy opens the log copy's sealed events. */
  readonly keysFile: string;
  /** Idempotency keys, webhook state, the consumers' positions. */
  readonly stateFile: string;
  /** Where older backups kept that state: a restore's first open moves it into {@link stateFile}. */
  readonly olderStateFile: string;
  /** Recorded in the manifest (`versions.sqlite`). */
  engineVersion(): string;
  /** Moves an older data dir's kept state into {@link stateFile}; throws one sentence saying why and what to do. */
  readyForCopy(dataDir: string): void;
  /** Into a new 0600 file, synced, as of one commit whatever is written meanwhile; `onBytes` hears its size. Resolves with its bytes. */
  copy(part: BackupPart, source: string, target: string, onBytes?: (bytes: number) => void): Promise<number>;
  /** Read-only; sums up the heads; `onEvents` hears the events checked. */
  checkLogCopy(dir: string, onEvents?: (events: number) => void): Promise<LogCopy>;
  /** Read-only, with the data keys of its key store copy under `kek`. */
  openSealedCopy(dir: string, kek: Buffer): Promise<SealedCheck>;
  /** Living data keys of the key store copy and current webhook secrets of the log copy under `version` (a copy not there counts none). */
  keyVersionUse(dir: string, version: number): { dataKeys: number; secrets: number };
  /** Destroys in the key store of `dataDir` the data key of each trainee of `erased`, at its time; resolves with how many it destroyed. */
  destroyKeys(dataDir: string, erased: readonly { traineeId: string; at: Date }[]): Promise<number>;
}

export const MANIFEST_FILE = 'manifest.json';

export const REBUILT_ON_RESTORE: readonly string[] = [
  'the read models (trainees, providers and tokens, the change feed): projected again from the log',
];
