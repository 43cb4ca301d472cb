import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/**
 * This process's environment without the production servers' URLs: a child runs on EventStoreDB or
 * MongoDB only when its test passes EVENTSTORE_URL or MONGODB_URL itself (the contract suites and
 * the production stack e2e read them from the environment; the other process tests are SQLite's).
 */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const { EVENTSTORE_URL: _eventStore, MONGODB_URL: _mongodb, ...rest } = process.env;
  return rest;
}

/** A TypeScript entry point of this repo running in its own OS process (through tsx). */
export class TsProcess {
  readonly lines: string[] = [];
  private waiters: { test: (line: string) => boolean; resolve: (line: string) => void; reject: (err: Error) => void }[] = [];
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcessWithoutNullStreams) {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      let i: number;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        this.lines.push(line);
        this.waiters = this.waiters.filter((w) => (w.test(line) ? (w.resolve(line), false) : true));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    this.exited = new Promise((resolve) =>
      child.on('close', (code) => {
        resolve(code);
        for (const w of this.waiters) w.reject(new Error(`process exited (${code}) before the line:\n${this.lines.join('\n')}`));
        this.waiters = [];
      }),
    );
  }

  /**
   * Starts `entry` (a path relative to the repo root) with `env` added to this process's environment
   * and `argv` as its arguments.
   * A `.js` entry runs the build (`dist/`, which jest's global setup makes; see {@link ensureBuilt}), as operators run the
   * service; a `.ts` entry (the examples) runs from source through tsx, with no decorator metadata, and starts a second or
   * more slower.
   * `prefix`: a command that runs node, such as `nsenter` with its options (`TmpfsDisk.prefix`).
   */
  static start(entry: string, env: Record<string, string>, argv: string[] = [], prefix: readonly string[] = []): TsProcess {
    const args = [...(entry.endsWith('.ts') ? ['--import', 'tsx', join(ROOT, entry)] : [join(ROOT, entry)]), ...argv];
    const [command, ...before] = [...prefix, process.execPath];
    const child = spawn(command, [...before, ...args], {
      cwd: ROOT,
      // Tests are many requests from one address: rate limits off unless a test sets them.
      env: { ...inheritedEnv(), RATE_LIMIT_IP_PER_MINUTE: '0', RATE_LIMIT_TOKEN_PER_MINUTE: '0', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new TsProcess(child);
  }

  /** Resolves with the first output line (past or future) matching `pattern`; rejects after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const seen = this.lines.find((l) => pattern.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${this.lines.join('\n')}`)),
        timeoutMs,
      );
      this.waiters.push({
        test: (l) => pattern.test(l),
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
    });
  }

  /** Sends `signal` and resolves with the exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** Builds `dist/` when the sources changed since the last build (as `npm start` does). */
export function ensureBuilt(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-needed.js')], { cwd: ROOT, stdio: 'ignore' });
}
