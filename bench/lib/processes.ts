/**
 * The two servers under load, each in its own OS process (the load generator runs in the harness
 * process): the built API (`dist/apps/api/src/main.js`) on a data dir, and the ceiling server.
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import * as net from 'node:net';
import { join } from 'node:path';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resident set size of a process in MiB: `current` (VmRSS), `peak` (VmHWM) and `anon` (RssAnon: the
 * heap, stacks and native allocations, without the file pages it maps, such as the memory-mapped
 * read model); null where /proc is missing.
 */
export function rssOf(pid: number): { current: number; peak: number; anon: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { current: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024, anon: kb('RssAnon') / 1024 };
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 where it cannot be asked). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User plus system CPU time of a /proc `stat` line, in ms. */
function cpuMsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * CPU time a process has used so far, in ms: all its threads (`total`) and its main thread
 * (`main`: the API's HTTP thread); null where /proc is missing.
 */
export function cpuOf(pid: number): { total: number; main: number } | null {
  try {
    return {
      total: cpuMsOf(readFileSync(`/proc/${pid}/stat`, 'utf8')),
      main: cpuMsOf(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')),
    };
  } catch {
    return null;
  }
}

/** Options of {@link ApiProcess.start}. */
export interface ApiStartOptions {
  repoRoot: string;
  dataDir: string;
  /** Extra environment (EVENTSTORE_URL, MONGODB_URL pass through from the harness's own). */
  env?: Record<string, string>;
  /** Directory for a V8 CPU profile of the whole run (`--cpu-prof`), or null. */
  cpuProfDir: string | null;
  /** File receiving the API's stdout and stderr. */
  logFile: string;
  /** How long to wait for `/healthz`, in ms. */
  startTimeoutMs?: number;
}

/** The API as a child process on a free port, with RSS sampling. */
export class ApiProcess {
  /** RSS samples (MiB) taken by {@link sample}, with the ms since start. */
  readonly samples: { t: number; rss: number }[] = [];
  private readonly started = Date.now();
  private exited: Promise<number | null>;

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    /** Milliseconds from spawn to the first healthy answer. */
    readonly startMs: number,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
  }

  /**
   * Spawns `node dist/apps/api/src/main.js` with the embedded default's environment
   * (`DATA_DIR`, `PORT`, `LOG_LEVEL=warn`, `APP_ENV=sandbox`, sandbox registry delayed by an hour so
   * no TRN is issued mid-run) and waits until `/healthz` answers; the API catches its projections
   * up before it listens. Throws with the tail of its log if it exits or does not answer in time.
   */
  static async start(options: ApiStartOptions): Promise<ApiProcess> {
    const port = await freePort();
    const args: string[] = [];
    if (options.cpuProfDir) args.push('--cpu-prof', '--cpu-prof-dir', options.cpuProfDir);
    args.push(join(options.repoRoot, 'dist', 'apps', 'api', 'src', 'main.js'));
    const log = createWriteStream(options.logFile);
    const spawnedAt = Date.now();
    const child = spawn(process.execPath, args, {
      cwd: options.repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        // The benchmark measures throughput, not admission: rate limits off unless a scenario sets them,
        // and no cap on requests per connection (past it Node answers 503 to a client that keeps the
        // connection, as the load generator does).
        RATE_LIMIT_IP_PER_MINUTE: '0',
        RATE_LIMIT_TOKEN_PER_MINUTE: '0',
        MAX_REQUESTS_PER_SOCKET: '0',
        ...options.env,
        DATA_DIR: options.dataDir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        APP_ENV: 'sandbox',
        REGISTRY_TRN_DELAY_MS: '3600000',
        REGISTRY_AWARD_DELAY_MS: '3600000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    const url = `http://127.0.0.1:${port}`;
    const deadline = spawnedAt + (options.startTimeoutMs ?? 600_000);
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}:\n${tail(options.logFile)}`);
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) {
          await res.arrayBuffer();
          break;
        }
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the API did not answer /healthz in time:\n${tail(options.logFile)}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return new ApiProcess(child, url, Date.now() - spawnedAt);
  }

  /** The process id. */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** CPU time used so far (ms), all threads and the main thread; null where /proc is missing. */
  cpu(): { total: number; main: number } | null {
    return cpuOf(this.pid);
  }

  /** Records one RSS sample (MiB) and returns it; null where RSS cannot be read. */
  sample(): { rss: number; anon: number } | null {
    const rss = rssOf(this.pid);
    if (rss) this.samples.push({ t: Date.now() - this.started, rss: rss.current });
    return rss && { rss: rss.current, anon: rss.anon };
  }

  /** Peak RSS so far (VmHWM, MiB), or the largest sample where /proc is missing. */
  peakRss(): number | null {
    return rssOf(this.pid)?.peak ?? (this.samples.length ? Math.max(...this.samples.map((s) => s.rss)) : null);
  }

  /** SIGTERM (the API closes its stores and exits, writing its CPU profile if asked), SIGKILL after 30 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The ceiling server (`bench/ceiling-server.ts`) as a child process. */
export class CeilingProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /** Forks the ceiling server and waits until it listens. */
  static async start(benchDir: string): Promise<CeilingProcess> {
    const child = fork(join(benchDir, 'ceiling-server.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the ceiling server exited with code ${code}`)));
      child.on('message', (m: { type: string; port?: number }) => {
        if (m.type === 'listening') resolve(m.port ?? 0);
      });
    });
    return new CeilingProcess(child, `http://127.0.0.1:${port}`);
  }

  /** Sets the answer per HTTP method (bytes and status) and waits until the server has them. */
  async setBodies(bodies: Record<string, { body: Buffer; status: number }>): Promise<void> {
    const payload: Record<string, { base64: string; status: number }> = {};
    for (const [method, b] of Object.entries(bodies)) payload[method] = { base64: b.body.toString('base64'), status: b.status };
    await new Promise<void>((resolve) => {
      const onMessage = (m: { type: string }): void => {
        if (m.type === 'bodies-set') {
          this.child.off('message', onMessage);
          resolve();
        }
      };
      this.child.on('message', onMessage);
      this.child.send({ type: 'bodies', bodies: payload });
    });
  }

  /** Stops the server. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.send({ type: 'stop' });
    await exited;
  }
}

/** The last lines of a log file, for error messages. */
function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
