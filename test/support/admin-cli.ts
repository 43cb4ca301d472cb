import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { inheritedEnv } from './processes';

const ROOT = join(__dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the admin CLI from source in its own OS process (as operators run it), on `dataDir`, in the sandbox unless `env` says otherwise. */
export function runAdmin(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<CliResult> {
  return runNode([require.resolve('tsx/cli'), join(ROOT, 'apps/admin/src/main.ts'), ...args], {
    ...inheritedEnv(),
    DATA_DIR: dataDir,
    APP_ENV: 'sandbox',
    ...env,
  });
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
 * Runs the built admin CLI (`dist/`, see `ensureBuilt`) in its own OS process, as `npm run admin`
 * does: it starts in about a second where {@link runAdmin}'s compiles first. For tests that run it
 * many times or under load.
 */
export function runBuiltAdmin(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<CliResult> {
  return runNode([join(ROOT, 'dist/apps/admin/src/main.js'), ...args], {
    ...inheritedEnv(),
    DATA_DIR: dataDir,
    APP_ENV: 'sandbox',
    ...env,
  });
}
