import type { LogPosition } from '@app/event-sourcing';

/**
 * One file of a backup (docs/operations.md "Backups and restore"): its name, the same in the
 * backup as in `DATA_DIR`, what its copy holds, and how the stores copy it (`how`: theirs to read,
 * {@link BackupFiles.copy}).
 */
export interface BackupPart {
  file: string;
  holds: string;
  how: 'whole' | 'state';
  /** True for the log: a data dir without it has nothing to back up. */
  required: boolean;
}

/**
 * What the audit finds in a copy of the log (a backup's): `position`, its last event's; `events`
 * and `streams`; `headsRoot`, the Merkle root over every stream's head in stream-id order (as a
 * signed digest makes it, docs/DESIGN.md "Signed digests"); `schema`, the log's schema version;
 * each chain fault as `audit verify` words it.
 */
export interface LogCopy {
  position: LogPosition;
  events: number;
  streams: number;
  headsRoot: string;
  schema: number;
  faults: string[];
}

/** What opening a log copy's sealed events with a key store copy found: how many opened, how many are erased, each problem. */
export interface SealedCheck {
  opened: number;
  erased: number;
  problems: string[];
}

/**
 * What a backup needs of the stores whose files it copies (libs/stores/sqlite implements it for
 * the embedded stores): the list of parts and their copies, each consistent as of one commit while
 * the service writes on, and the reads of the copies that check them. The manifest, its MAC and
 * signature, the order of the work, the checks' verdicts and the erasure ledger are the backup's own.
 */
export interface BackupFiles {
  /** What a backup copies, in the order it is copied. */
  readonly parts: readonly BackupPart[];
  /** The event log's file: a data dir without it has nothing to back up. */
  readonly logFile: string;
  /** The data keys' file, whose copy opens the log copy's sealed events. */
  readonly keysFile: string;
  /** The kept state's file (idempotency keys, webhook state, the consumers' positions). */
  readonly stateFile: string;
  /** Where older backups kept that state instead (a restore's first open moves it into {@link stateFile}). */
  readonly olderStateFile: string;
  /** The version of what copies the files, recorded in the manifest (`versions.sqlite`). */
  engineVersion(): string;
  /**
   * Readies `dataDir` for its copy (an older data dir's kept state moved into {@link stateFile}).
   * Throws with one sentence saying why and what to do when it cannot.
   */
  readyForCopy(dataDir: string): void;
  /**
   * Copies `part` from the file `source` into `target`, a new file readable by this user only,
   * synced once written: the file as of one commit, whatever is written meanwhile. `onBytes` hears
   * the target's size as it grows. Resolves with its size in bytes; rejects with what failed.
   */
  copy(part: BackupPart, source: string, target: string, onBytes?: (bytes: number) => void): Promise<number>;
  /** Checks every chain of the log copy in `dir`, read-only, and sums up its heads; `onEvents` hears the events checked. */
  checkLogCopy(dir: string, onEvents?: (events: number) => void): Promise<LogCopy>;
  /** Opens every sealed event of the log copy in `dir` with the data keys of its key store copy under `kek`, read-only. */
  openSealedCopy(dir: string, kek: Buffer): Promise<SealedCheck>;
  /**
   * How many living data keys of the key store copy in `dir` are wrapped under the service key's
   * `version`, and how many webhook endpoints of its log copy have their current secret sealed
   * under it (a copy that is not there counts none). Throws when a copy cannot be read.
   */
  keyVersionUse(dir: string, version: number): { dataKeys: number; secrets: number };
  /** Destroys in the key store of `dataDir` the data key of each trainee of `erased`, at its time; resolves with how many it destroyed. */
  destroyKeys(dataDir: string, erased: readonly { traineeId: string; at: Date }[]): Promise<number>;
}

/** The manifest's file name inside a backup. */
export const MANIFEST_FILE = 'manifest.json';

/** What a restore makes again instead of copying, and why it can. */
export const REBUILT_ON_RESTORE: readonly string[] = [
  'the read models (trainees, providers and tokens, the change feed): projected again from the log',
];
