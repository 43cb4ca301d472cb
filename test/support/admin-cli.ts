import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { inheritedEnv } from './processes';

const ROOT = join(__dirname, '..', '..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built admin CLI (`dist/`, which jest's global setup builds when the sources changed) in its
 * own OS process on `dataDir`, as operators run it (`npm run admin`), in the sandbox unless `env`
 * says otherwise. It starts in about a second, where compiling from source took three or four.
 */
export function runAdmin(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<CliResult> {
  return runNode([join(ROOT, 'dist/apps/admin/src/main.js'), ...args], {
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
