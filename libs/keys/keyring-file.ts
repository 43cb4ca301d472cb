import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatKeyring, KeyringError, parseKeyring, readKeyring, type ServiceKeyring } from './keyring';
import { KEYRING_LOCK_WAIT_MS, lockAlone, lockFileOf, lockShared } from './keyring-lock';

/** What a change of the keyring gives back: the keyring to write (null: the file stays as it is) and the caller's result. */
export interface KeyringChange<T> {
  next: ServiceKeyring | null;
  result: T;
}

/**
 * The service keyring's file (docs/operations.md "The service key") and the one way it changes:
 * under its lock ({@link lockFileOf}: `<file>.lock`), so changes made at once by several processes
 * (keys rotate, keys retire) never undo each other, and no change is made while a process stores a
 * key wrapped under a version it read ({@link holding}). `waitMs`: how long a change or a use waits
 * for the lock (default 30 s); `what` names the file in errors.
 */
export class KeyringFile {
  /** The lock file beside the keyring. */
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

  /** The keyring as the file holds it now. Throws `KeyringError` when it cannot be read or is not a keyring. */
  read(): ServiceKeyring {
    return readKeyring(this.path, this.options.what ?? 'the service keyring');
  }

  /**
   * Changes the keyring: takes the lock alone (waiting at most `waitMs`: `KeyringBusy` after),
   * reads the file again inside it, so `change` always works on the keyring as it is, not as it
   * was when the command started, and writes what `change` gives back durably ({@link
   * writeDurably}) before the lock is released. The wait blocks this thread: one change at a time
   * in a process, and no {@link holding} inside `change`. Returns `change`'s result. Throws what
   * `change` throws (nothing is written then), and `KeyringError` when the file cannot be read,
   * locked or written.
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
   * Runs `use` with the keyring as the file holds it now, read under the lock shared with other
   * users: no change of the keyring can be made until `use` settles, so a key `use` wraps and
   * stores under a version read here is stored before any retirement counts (docs/DESIGN.md
   * "Personal data", "Rotation"). Where the lock file can be neither opened nor made (a read-only
   * mount), `use` runs with the keyring read without it. Throws `KeyringError` when the file cannot
   * be read (`use` does not run: nothing is wrapped under an older version), `KeyringBusy` past
   * the wait, and what `use` throws.
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
   * Makes the file holding `text`, the text of a keyring (`parseKeyring` reads it: a lone key in
   * base64 is version 1), when there is none (the sandbox's first key), written durably and linked
   * in ({@link writeDurably}: `create`), never replacing one: of processes starting at once, one
   * makes it and the others read it. No lock is taken: a file made where none was undoes no change,
   * and a change needs a file to read. Returns whether this call made it. Throws `KeyringError` for
   * a text that is not a keyring (nothing is written), and the file system's error.
   */
  createIfAbsent(text: string): boolean {
    parseKeyring(text, this.path, this.options.what ?? 'the service keyring');
    mkdirSync(dirname(this.path), { recursive: true });
    return writeDurably(this.path, text, 'create');
  }
}

/**
 * Writes `text` to `file` whole and durably: a draft beside it (mode 0600) written and `fsync`ed,
 * then renamed over the file (`replace`) or linked in where none is (`create`: false when one is
 * there already, which is left as it is), then the directory `fsync`ed, so a reader sees the old
 * file or the new one, and a crash of the machine leaves one of them.
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
