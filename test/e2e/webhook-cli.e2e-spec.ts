import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminWorker } from '../support/admin-cli';

/**
 * The admin CLI loaded once in a process of its own, for commands run again here; the first run of
 * each command, and the runs about the program itself, start it as operators do.
 */
const admin = AdminWorker.forFile();

describe('admin webhook add|list|disable|deliveries (docs/change-feed.md "Webhooks")', () => {
  let dataDir: string;
  /** A production service key (docs/operations.md "The service key"). */
  let keyFile: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'webhook-cli-'));
    keyFile = join(dataDir, 'production-key');
    writeFileSync(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    expect((await admin.run(['provider', 'add', '--ukprn', '10000040', '--name', 'Hook SCITT'], dataDir)).code).toBe(0);
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('adds an endpoint (its secret shown once), lists it without the secret, disables it once, and shows its deliveries', async () => {
    const added = await admin.run(
      ['webhook', 'add', '--ukprn', '10000040', '--url', 'http://127.0.0.1:9/hooks', '--events', 'TraineeUpdated,TrnIssued'],
      dataDir,
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const [, id] = /Webhook endpoint (wh_[0-9a-f]+) added for provider 10000040: http:\/\/127\.0\.0\.1:9\/hooks/.exec(added.stdout)!;
    const secret = added.stdout.trim().split('\n').at(-1)!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const listed = await admin.run(['webhook', 'list', '--ukprn', '10000040'], dataDir);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${id}\t10000040\tactive\thttp://127.0.0.1:9/hooks\tTraineeUpdated,TrnIssued\tv2026.1\t`);
    expect(listed.stdout).not.toContain(secret);
    // Stored sealed: neither the log nor its export holds the secret (docs/change-feed.md "How deliveries are kept").
    const exported = await admin.run(['events', 'export'], dataDir);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/"secret":"sealed2\.1\.[A-Za-z0-9_-]+"/);
    expect(exported.stdout).not.toContain(secret.slice('whsec_'.length, 'whsec_'.length + 20));

    expect((await admin.run(['webhook', 'disable', id, '--reason', 'moving'], dataDir)).stdout).toBe(`Webhook endpoint ${id} disabled\n`);
    expect((await admin.run(['webhook', 'disable', id], dataDir)).stdout).toBe(`Webhook endpoint ${id} was already disabled\n`);
    expect((await admin.run(['webhook', 'list'], dataDir)).stdout).toContain(`${id}\t10000040\tdisabled\t`);
    const deliveries = await admin.run(['webhook', 'deliveries', id, '--limit', '5'], dataDir);
    expect(deliveries).toMatchObject({
      code: 0,
      stdout: 'message_id\ttrainee_id\tstatus\tattempts\tlast_status\tlast_error\tlast_attempt_at\tdelivered_at\n',
    });
  });

  it.each([
    ['an unknown provider', ['--ukprn', '10000041', '--url', 'https://hooks.example.org/x'], {}, /No provider with UKPRN 10000041/],
    [
      'an unknown change type',
      ['--ukprn', '10000040', '--url', 'https://hooks.example.org/x', '--events', 'Nope'],
      {},
      /Unknown change types: Nope/,
    ],
    [
      'http:// in production',
      ['--ukprn', '10000040', '--url', 'http://hooks.example.org/x'],
      { APP_ENV: 'production' },
      /must be https:\/\//,
    ],
    ['a loopback target in production', ['--ukprn', '10000040', '--url', 'https://127.0.0.1/x'], { APP_ENV: 'production' }, /loopback/],
    [
      'a port other than 443 in production',
      ['--ukprn', '10000040', '--url', 'https://1.1.1.1:22/hook'],
      { APP_ENV: 'production' },
      /webhook target port 22 is not allowed \(allowed: 443\)/,
    ],
    [
      'a port WEBHOOK_PORTS does not list',
      ['--ukprn', '10000040', '--url', 'http://127.0.0.1:9/hooks'],
      { WEBHOOK_PORTS: '443,8443' },
      /webhook target port 9 is not allowed \(allowed: 443, 8443\)/,
    ],
    [
      'a WEBHOOK_PORTS that is not a list of ports',
      ['--ukprn', '10000040', '--url', 'http://127.0.0.1:9/hooks'],
      { WEBHOOK_PORTS: '443,ssh' },
      /WEBHOOK_PORTS: must be/,
    ],
    [
      'production without DATA_KEY_FILE',
      ['--ukprn', '10000040', '--url', 'https://hooks.example.org/x'],
      { APP_ENV: 'production', DATA_KEY_FILE: '' },
      /DATA_KEY_FILE: required in production/,
    ],
    [
      'an API version not implemented',
      ['--ukprn', '10000040', '--url', 'https://hooks.example.org/x', '--api-version', 'v1'],
      {},
      /API version must be one of/,
    ],
  ])('refuses %s with exit code 1 and a clear message', async (_, args, env, message) => {
    // Production rows run with the production key unless they set DATA_KEY_FILE themselves.
    const withKey = (env as NodeJS.ProcessEnv).APP_ENV === 'production' ? { DATA_KEY_FILE: keyFile, ...env } : env;
    const refused = await admin.run(['webhook', 'add', ...args], dataDir, withKey);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(message);
  });

  it('refuses a bad --limit and an unknown endpoint', async () => {
    const bad = await admin.run(['webhook', 'deliveries', 'wh_x', '--limit', '0'], dataDir);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/--limit must be a whole number from 1 to 1000/) });
    const unknown = await admin.run(['webhook', 'disable', 'wh_nope'], dataDir);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/No webhook endpoint wh_nope/) });
  });
});
