import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatKeyring, KeyringError, parseKeyring, readKeyring, type ServiceKeyring } from './keyring';
import { KEYRING_LOCK_WAIT_MS, lockAlone, lockFileOf, lockShared } from './keyring-lock';

/** `next` null: the file stays as it is. */
export interface KeyringChange<T> {
  next: ServiceKeyring | null;
  result: T;
}

/** The keyring's file (docs/operations.md "The service key"), changed only under its lock: no change undoes another ({@link holding}). */
export class KeyringFile {
  readonly lockFile: string;

  constructor(
    readonly path: string,
    private readonly options: { waitMs?: number; what?: string } = {},
  ) {
    this.lockFile = lockFileOf(path);
  }

  private get waitMs(): number {
    return this.options.waitMs ?? KEYRING_LOCK_WAIT_MS;
  }

  /** Throws `KeyringError` when it cannot be read or is not a keyring. */
  read(): ServiceKeyring {
    return readKeyring(this.path, this.options.what ?? 'the service keyring');
  }

  /**
   * Under the lock alone (blocking this thread; `KeyringBusy` past `waitMs`), `change` gets the file as it is now and what it returns
   * is written durably before release. Not for use inside {@link holding}. Throws what `change` throws (nothing written), `KeyringError`.
   */
  async change<T>(change: (now: ServiceKeyring) => Promise<KeyringChange<T>> | KeyringChange<T>): Promise<T> {
    const release = lockAlone(this.lockFile, this.waitMs);
    try {
      const { next, result } = await change(this.read());
      if (next !== null) this.write(next);
      return result;
    } finally {
      release();
    }
  }

  private write(keyring: ServiceKeyring): void {
    try {
      writeDurably(this.path, formatKeyring(keyring), 'replace');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      throw new KeyringError(
        `cannot write the keyring ${this.path} (${code}): change it where the file is writable, then give every process the new file`,
      );
    }
  }

  /**
   * Runs `use` under the shared lock, so no change is made until it settles and what it wraps is counted by any retirement
   * (docs/DESIGN.md "Personal data"). Without the lock on a read-only mount. Throws `KeyringError`, `KeyringBusy`, and what `use` throws.
   */
  async holding<T>(use: (now: ServiceKeyring) => Promise<T>): Promise<T> {
    const release = await lockShared(this.lockFile, this.waitMs);
    try {
      return await use(this.read());
    } finally {
      release?.();
    }
  }

  /**
   * Writes `text` (a keyring's text) durably where no file is, never replacing one: of processes starting at once, one makes it.
   * No lock: a change needs a file to read. True when this call made it; `KeyringError` for a text that is not a keyring.
   */
  createIfAbsent(text: string): boolean {
    parseKeyring(text, this.path, this.options.what ?? 'the service keyring');
    mkdirSync(dirname(this.path), { recursive: true });
    return writeDurably(this.path, text, 'create');
  }
}

/**
 * Writes `text` whole and durably: a 0600 draft fsynced, renamed over `file` (`replace`) or linked in where none is (`create`: false
 * when one is), then the directory fsynced, so a crash leaves the old file or the new one.
 */
export function writeDurably(file: string, text: string, how: 'replace' | 'create'): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  let written = true;
  try {
    const fd = openSync(draft, 'wx', 0o600);
    try {
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (how === 'replace') renameSync(draft, file);
    else written = linked(draft, file);
  } finally {
    rmSync(draft, { force: true });
  }
  fsyncDirectory(dirname(file));
  return written;
}

function linked(draft: string, file: string): boolean {
  try {
    linkSync(draft, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
