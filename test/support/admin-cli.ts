import { fork, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { inheritedEnv } from './processes';

const ROOT = join(__dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment the admin CLI runs with on `dataDir`: this process's, in the sandbox unless `env` says otherwise. */
function adminEnv(dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...inheritedEnv(), DATA_DIR: dataDir, APP_ENV: 'sandbox', ...env };
}

/**
 * Runs the built admin CLI (`dist/`, which jest's global setup builds when the sources changed) in its
 * own OS process on `dataDir`, as operators run it (`npm run admin`), in the sandbox unless `env`
 * says otherwise. It starts in about a second, where compiling from source took three or four.
 */
export function runAdmin(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<CliResult> {
  return runNode([join(ROOT, 'dist/apps/admin/src/main.js'), ...args], adminEnv(dataDir, env));
}

/** Runs Node.js with `args` in its own OS process from the project's root, and collects its exit code and output. */
export function runNode(args: string[], env: NodeJS.ProcessEnv = inheritedEnv()): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * An OS process of its own that runs admin CLI commands one after another with the built CLI's
 * `runCli` (test/support/admin-worker-main.js), as {@link runAdmin} runs them and with the same
 * answer, without starting Node.js and loading the CLI for each: about 0.6 s of CPU saved per
 * command. Beside a running API it is another process, as the CLI is, holding its own SQLite
 * locks. What only the program shows (its exit through `process.exit`, a kill while it runs, its
 * start) needs {@link runAdmin}.
 */
export class AdminWorker {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: ((result: CliResult) => void)[] = [];
  /** What reached the process's own stdout and stderr (not through `process.stdout.write`) while a command ran. */
  private direct = { stdout: '', stderr: '' };
  private output = '';
  private failed: Error | null = null;

  private constructor() {}

  /** Starts a worker now: its first command waits until the CLI is loaded. End it with {@link close}. */
  static start(): AdminWorker {
    const worker = new AdminWorker();
    worker.begin();
    return worker;
  }

  /**
   * A worker for the test file that calls this at its top level: started at its first command,
   * ended after the file's tests.
   */
  static forFile(): AdminWorker {
    const worker = new AdminWorker();
    afterAll(() => worker.close());
    return worker;
  }

  /** Runs the command `args` on `dataDir` with `env` as {@link runAdmin} does, after the commands sent before it. */
  async run(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<CliResult> {
    const child = this.begin();
    await this.ready;
    if (this.failed) throw this.failed;
    const answer = new Promise<CliResult>((resolve) => this.queue.push(resolve));
    child.send({ argv: args, env: adminEnv(dataDir, env) });
    return answer;
  }

  /** Ends the worker (a command still running is cut short). */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** The worker's process, started at the first call. */
  private begin(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(join(__dirname, 'admin-worker-main.js'), [], {
      cwd: ROOT,
      env: inheritedEnv(),
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.child = child;
    this.ready = new Promise<void>((resolve, reject) => {
      child.on('message', (message: { ready?: boolean } & CliResult) => (message.ready ? resolve() : this.answered(message)));
      child.on('exit', (code, signal) => {
        this.failed = new Error(`the admin worker exited (${code ?? signal}):\n${this.output}`);
        reject(this.failed);
        while (this.queue.length > 0) this.answered({ code: -1, stdout: '', stderr: this.failed.message });
      });
    });
    // A worker ended before its first command leaves no rejection unhandled.
    this.ready.catch(() => undefined);
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream]!.on('data', (chunk: Buffer) => {
        this.output = (this.output + chunk.toString()).slice(-10_000);
        if (this.queue.length > 0) this.direct[stream] += chunk.toString();
      });
    }
    return child;
  }

  /** The answer to the oldest command sent, with anything its process wrote around `process.stdout` and `process.stderr`. */
  private answered(result: CliResult): void {
    const { stdout, stderr } = this.direct;
    this.direct = { stdout: '', stderr: '' };
    this.queue.shift()?.({ code: result.code, stdout: result.stdout + stdout, stderr: result.stderr + stderr });
  }
}
