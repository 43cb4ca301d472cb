/**
 * The admin worker answers as the program does (test/support/admin-cli.ts): for the same commands
 * on two data dirs made alike, `AdminWorker.run` and `runAdmin` (the built CLI as a process of its
 * own) give the same exit code, stdout and stderr, a refusal and a usage error included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminWorker, runAdmin, type CliResult } from './admin-cli';

/** `result` with its instants (when a provider was added) written `<instant>`: the two runs differ there only. */
function withoutInstants(result: CliResult): CliResult {
  const plain = (text: string) => text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<instant>');
  return { code: result.code, stdout: plain(result.stdout), stderr: plain(result.stderr) };
}

describe('the admin worker and the admin CLI program', () => {
  const admin = AdminWorker.forFile();
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'admin-worker-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('answer the same commands alike, refusals and usage errors included', async () => {
    const commands = [
      ['provider', 'add', '--ukprn', '10000700', '--name', 'Worker University'],
      ['provider', 'list'],
      ['provider', 'add', '--ukprn', '10000700', '--name', 'Again'],
      ['provider', 'add', '--ukprn', '12', '--name', 'X'],
      ['token', 'issue'],
      ['no-such-command'],
    ];
    const [byWorker, byProgram] = [join(root, 'worker'), join(root, 'program')];
    for (const args of commands) {
      const [worker, program] = [await admin.run(args, byWorker), await runAdmin(args, byProgram)];
      expect({ args, ...withoutInstants(worker) }).toEqual({ args, ...withoutInstants(program) });
    }
    const listed = await admin.run(['provider', 'list'], byWorker);
    expect(listed.stdout).toContain('10000700');
  }, 60_000);
});
