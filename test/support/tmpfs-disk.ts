import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './processes';

const run = promisify(execFile);

/**
 * A small tmpfs that a test can fill: mounted in a private mount namespace of its own user
 * namespace (`unshare -Urm`, which needs no root where unprivileged user namespaces are allowed,
 * and works as root), held by a holder process (for at most 10 minutes) so that what is written
 * there outlives the processes that write it (an API restarted on the same data). Processes enter it through
 * {@link prefix} (`nsenter` into the holder's namespaces, working directory the repo's root).
 * Nothing of it is visible outside those namespaces; {@link release} ends the holder, and the
 * tmpfs with it.
 */
export class TmpfsDisk {
  private constructor(
    /** Where the tmpfs is mounted (inside the namespace; an empty folder outside it). */
    readonly dir: string,
    private readonly holder: ChildProcess,
  ) {}

  /**
   * Mounts a tmpfs of `megabytes` MiB. Throws, with a sentence saying what is missing, when the
   * machine cannot make the namespaces or mount there (no `unshare`, user namespaces not allowed).
   */
  static async mount(megabytes: number): Promise<TmpfsDisk> {
    const dir = mkdtempSync(join(tmpdir(), 'tmpfs-disk-'));
    const script = `mount -t tmpfs -o size=${megabytes}m none ${dir} && echo mounted && exec sleep 600`;
    const holder = spawn('unshare', ['-Urm', 'sh', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    holder.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const mounted = await new Promise<boolean>((resolve) => {
      holder.stdout!.once('data', () => resolve(true));
      holder.once('error', (err) => ((stderr += String(err)), resolve(false)));
      holder.once('exit', () => resolve(false));
    });
    if (!mounted) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(
        `This test needs a small tmpfs in a private mount namespace, made with \`unshare -Urm\` (util-linux) and entered with ` +
          `\`nsenter\`: user and mount namespaces must be allowed for this user (as root, or with unprivileged user namespaces ` +
          `enabled). It could not make one here: ${stderr.trim() || 'unshare exited'}`,
      );
    }
    return new TmpfsDisk(dir, holder);
  }

  /** The command that runs a program inside the tmpfs's namespaces, in the repo's root. */
  get prefix(): string[] {
    return ['nsenter', '-t', String(this.holder.pid), '-U', '-m', '--preserve-credentials', `--wd=${ROOT}`];
  }

  /** Runs `script` with `sh -c` inside the namespaces; resolves with its output, rejects when it fails. */
  async sh(script: string): Promise<string> {
    const [command, ...args] = this.prefix;
    const { stdout } = await run(command, [...args, 'sh', '-c', script], { encoding: 'utf8' });
    return stdout;
  }

  /** Bytes still free on the tmpfs. */
  async freeBytes(): Promise<number> {
    return Number((await this.sh(`df -B1 --output=avail ${this.dir} | tail -1`)).trim());
  }

  /** Fills every free byte with the file `filler` (the write that finds the disk full ends it). */
  async fill(): Promise<void> {
    await this.sh(`cat /dev/zero > ${this.dir}/filler 2>/dev/null; true`);
  }

  /** Deletes the filler: the space it took is free again. */
  async unfill(): Promise<void> {
    await this.sh(`rm -f ${this.dir}/filler`);
  }

  /** Ends the holder (the tmpfs goes once no process is left in its namespace) and removes the mount point. */
  release(): void {
    this.holder.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}
