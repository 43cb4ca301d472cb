import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { londonDate } from '@app/providers/write';
import { addMonths } from '@app/calendar';
import { AdminWorker, runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/**
 * The admin CLI's commands beside a running API, each run by one worker process that loads the CLI
 * once (test/support/admin-cli.ts); a usage error runs the program itself, for its exit code. The
 * runbooks run every documented command as a program.
 */
describe('admin CLI against the same DATA_DIR as a running API (docs/operations.md "The admin CLI")', () => {
  const admin = AdminWorker.forFile();
  let dataDir: string;
  let api: RunningApi;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'trainee-records-admin-'));
    api = await RunningApi.start({ dataDir });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds a provider, issues a token the API accepts within a second, lists it, revokes it and the API refuses it within a second', async () => {
    const added = await admin.run(['provider', 'add', '--ukprn', '10000030', '--name', 'Example University'], dataDir);
    expect(added.code).toBe(0);

    const issued = await admin.run(['token', 'issue', '--ukprn', '10000030'], dataDir);
    expect(issued.code).toBe(0);
    const lines = issued.stdout.trimEnd().split('\n');
    const token = lines[lines.length - 1];
    expect(token).toMatch(/^sandbox_[0-9a-f]{64}$/);

    const accepted = await eventually(async () => (await api.request('GET', '/api/v2025.0/info', token)).status === 200, 1000);
    expect(accepted).toBe(true);

    const listed = await admin.run(['token', 'list', '--ukprn', '10000030'], dataDir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(token);
    const row = listed.stdout.split('\n').find((l) => l.includes('\tactive\t'));
    expect(row).toBeDefined();
    const tokenId = row!.split('\t')[0];

    const revoked = await admin.run(['token', 'revoke', '--token-id', tokenId], dataDir);
    expect(revoked.code).toBe(0);
    const refused = await eventually(async () => (await api.request('GET', '/api/v2025.0/info', token)).status === 401, 1000);
    expect(refused).toBe(true);

    const after = await admin.run(['token', 'list', '--ukprn', '10000030'], dataDir);
    expect(after.stdout).toContain(`${tokenId}\trevoked\t`);
  });

  it('issues a token with --expires-at, refuses an expiry not after today or beyond six months, and lists expiry and last use', async () => {
    const today = londonDate(new Date());
    const cases: [string, string][] = [
      [today, `Expiry date must be after today (${today}), got ${today}`],
      [addMonths(today, 7), `Expiry date must be at most 6 months ahead (${addMonths(today, 6)}), got ${addMonths(today, 7)}`],
    ];
    await admin.run(['provider', 'add', '--ukprn', '10000032', '--name', 'Expiring University'], dataDir);
    for (const [expiresAt, message] of cases) {
      const refused = await admin.run(['token', 'issue', '--ukprn', '10000032', '--expires-at', expiresAt], dataDir);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(message);
    }
    const expiresAt = addMonths(today, 1);
    const issued = await admin.run(['token', 'issue', '--ukprn', '10000032', '--expires-at', expiresAt], dataDir);
    expect(issued.code).toBe(0);
    expect(issued.stdout).toContain(`expires_at ${expiresAt}`);
    const token = issued.stdout.trimEnd().split('\n').pop()!;
    expect(await eventually(async () => (await api.request('GET', '/api/v2025.0/info', token)).status === 200, 1000)).toBe(true);
    await eventually(async () => (await api.infra.readModel.listTokens('10000032'))[0]?.last_used_at !== null, 1000);

    const listed = await admin.run(['token', 'list', '--ukprn', '10000032'], dataDir);
    const [header, row] = listed.stdout.split('\n');
    expect(header).toBe('token_id\tstatus\tissued_at\texpires_at\tlast_used_at\trevoked_at');
    expect(row.split('\t')).toEqual([
      expect.any(String),
      'active',
      expect.any(String),
      expiresAt,
      expect.stringMatching(/^\d{4}-.*Z$/),
      '',
    ]);
  });

  it('imports the schools register CSV, and placements link to the schools at once', async () => {
    const imported = await admin.run(['schools', 'import', 'samples/schools.csv'], dataDir);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Imported 20 schools; skipped 0 rows');
    const token = await api.providerToken('10000031');
    const created = await api.request(
      'POST',
      '/api/v2025.0/trainees',
      token,
      uniqueTrainee('v2025.0', { placements_attributes: [{ urn: '100038' }] }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.placements[0]).toMatchObject({ urn: '100038', name: 'Ash Academy', address: 'URN 100038, Leeds, LS1 1DX' });
    const missing = await admin.run(['schools', 'import', 'no-such-file.csv'], dataDir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No such file');
  });

  it('refuses bad input with a message and a non-zero exit code', async () => {
    const badUkprn = await admin.run(['provider', 'add', '--ukprn', '12', '--name', 'X'], dataDir);
    expect(badUkprn.code).toBe(1);
    expect(badUkprn.stderr).toContain('UKPRN must be 8 digits');
    const twice = await admin.run(['provider', 'add', '--ukprn', '10000030', '--name', 'Again'], dataDir);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('already registered');
    const unknown = await admin.run(['token', 'issue', '--ukprn', '19999999'], dataDir);
    expect(unknown.code).toBe(1);
    const noToken = await admin.run(['token', 'revoke', '--token-id', 'nope'], dataDir);
    expect(noToken.code).toBe(1);
    const usage = await runAdmin(['token', 'issue'], dataDir);
    expect(usage.code).toBe(2);
  });
});
