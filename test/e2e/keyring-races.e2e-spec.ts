// Slow by design: 50 rotate/retire pairs, 10 OS processes at a time on one keyring, each rotation rewrapping every data key.
/**
 * `keys rotate` and `keys retire` run at the same moment on one keyring (docs/operations.md
 * "Rotating the service key"): 50 pairs beside a running API, in batches of 5 pairs started at
 * once, each batch rotating to 5 new versions while the 5 versions before the last current one are
 * retired. Each command of a batch runs in an admin CLI process of its own (10 processes running
 * the built CLI, each loaded once and given one command per batch), so the keyring's lock is taken
 * by separate OS processes at the same moment, as by operators' runs. After every batch the
 * keyring is whole and holds every version the rotations made, and at the end every trainee reads
 * and writes through the API, its history opens in the CLI, a backup verifies and the webhook
 * endpoint's secret opens: no key was left wrapped under a version that left the keyring.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parseKeyring } from '@app/keys';
import { SANDBOX_KEY_FILE, sealedSecretsOf } from '@app/runtime/process';
import { openSqliteEventStore } from '@app/stores/sqlite';
import { AdminWorker, runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const UKPRN = '10000152';
const base = '/api/v2026.1/trainees';
const PAIRS = 50;
const BATCH = 5;

/** Runs of the admin CLI with the arguments `args(n)` started at once, the n-th in the process `workers[n]`. */
function atOnce(workers: AdminWorker[], args: (n: number) => string[], dataDir: string) {
  return Promise.all(workers.map((worker, n) => worker.run(args(n), dataDir)));
}

describe('keys rotate and keys retire at once', () => {
  let api: RunningApi;
  let work: string;
  const rotators: AdminWorker[] = [];
  const retirers: AdminWorker[] = [];

  beforeAll(async () => {
    for (let n = 0; n < BATCH; n++) rotators.push(AdminWorker.start());
    for (let n = 0; n < BATCH; n++) retirers.push(AdminWorker.start());
    api = await RunningApi.start();
    work = mkdtempSync(join(tmpdir(), 'keyring-races-'));
  });
  afterAll(async () => {
    await Promise.all([...rotators, ...retirers].map((w) => w.close()));
    await api.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('never loses the current version, and every sealed value opens afterwards', async () => {
    const token = await api.providerToken(UKPRN);
    const trainees: string[] = [];
    for (let n = 0; n < 3; n++) {
      const res = await api.request('POST', base, token, uniqueTrainee('v2026.1'));
      expect(res.status).toBe(201);
      trainees.push(res.body.data.trainee_id as string);
    }
    const hook = await runAdmin(['webhook', 'add', '--ukprn', UKPRN, '--url', 'http://127.0.0.1:9/hooks'], api.dataDir);
    expect(hook.code).toBe(0);
    const endpointId = /Webhook endpoint (wh_[0-9a-f]+) added/.exec(hook.stdout)![1];
    const keyringFile = join(api.dataDir, SANDBOX_KEY_FILE);
    const keyring = () => parseKeyring(readFileSync(keyringFile, 'utf8'), keyringFile, 'keyring');
    const held = () => [...keyring().versions.keys()].sort((a, b) => a - b);
    // The program itself rotates first; the batches' processes then each load the CLI once.
    expect((await runAdmin(['keys', 'rotate'], api.dataDir)).code).toBe(0);
    for (let n = 1; n < BATCH; n++) expect((await rotators[n].run(['keys', 'rotate'], api.dataDir)).code).toBe(0);
    expect(held()).toEqual([1, 2, 3, 4, 5, 6]);

    // A reader beside the batches: the file is never seen half-written.
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        keyring();
        reads++;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      for (let batch = 0; batch < PAIRS / BATCH; batch++) {
        const before = keyring();
        const older = held().filter((v) => v < before.current);
        const [rotated, retired] = await Promise.all([
          atOnce(rotators, () => ['keys', 'rotate'], api.dataDir),
          atOnce(retirers, (n) => ['keys', 'retire', String(older[n])], api.dataDir),
        ]);
        expect({ batch, rotated: rotated.map((r) => [r.code, r.stderr]) }).toEqual({ batch, rotated: Array(BATCH).fill([0, '']) });
        expect({ batch, retired: retired.map((r) => [r.code, r.stderr]) }).toEqual({ batch, retired: Array(BATCH).fill([0, '']) });
        const current = before.current + BATCH;
        expect({ batch, current: keyring().current, held: held() }).toEqual({
          batch,
          current,
          held: Array.from({ length: BATCH + 1 }, (_, n) => before.current + n),
        });
        const patched = await api.request('PATCH', `${base}/${trainees[batch % trainees.length]}`, token, {
          data: { middle_names: `Batch${batch}` },
        });
        expect({ batch, status: patched.status }).toEqual({ batch, status: 200 });
      }
    } finally {
      reading = false;
      await reader;
    }
    expect(reads).toBeGreaterThan(PAIRS / BATCH);

    for (const id of trainees) {
      const history = await rotators[0].run(['trainee', 'history', id, '--format', 'json'], api.dataDir);
      expect({ id, code: history.code, stderr: history.stderr }).toEqual({ id, code: 0, stderr: '' });
      expect(history.stdout).not.toContain('[erased]');
      expect((await api.request('PATCH', `${base}/${id}`, token, { data: { middle_names: 'After' } })).status).toBe(200);
    }
    const backup = join(work, 'backup');
    expect((await rotators[0].run(['backup', 'create', '--output', backup], api.dataDir)).code).toBe(0);
    const verified = await rotators[0].run(['backup', 'verify', backup], api.dataDir);
    expect({ code: verified.code, stdout: verified.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(/^backup .* holds/) });

    const log = openSqliteEventStore(api.dataDir);
    try {
      const events = await log.readStream(`webhook-${endpointId}`);
      const latest = events[events.length - 1].data as { secret: string };
      expect(sealedSecretsOf(keyring()).open(latest.secret, endpointId)).toMatch(/^whsec_/);
    } finally {
      await log.close();
    }
  }, 600_000);
});
