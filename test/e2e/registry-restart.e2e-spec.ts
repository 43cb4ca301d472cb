import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeRegistry } from '../support/fake-registry';
import { ensureBuilt, TsProcess } from '../support/processes';
import { checkAgainstServedDocument } from '../support/served-document';
import { uniqueTrainee } from '../support/trainee-input';

/** Starts the API as its own OS process on `dir`; resolves its base URL and (first start) the demo token. */
async function startApi(dir: string, registryUrl: string): Promise<{ proc: TsProcess; url: string; token: string | null }> {
  const proc = TsProcess.start('dist/apps/api/src/main.js', { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', REGISTRY_URL: registryUrl });
  const line = await proc.waitForLine(/trainee records API listening/);
  const token = proc.lines.map((l) => /^\s+(sandbox_[0-9a-f]{64})$/.exec(l)?.[1]).find(Boolean) ?? null;
  return { proc, url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`, token };
}

async function call(url: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  await checkAgainstServedDocument(url, method, path, { status: res.status, headers: res.headers, text });
  return { status: res.status, body: JSON.parse(text) };
}

async function until(check: () => boolean | Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the registry process manager across restarts of the API process (HTTP registry)', () => {
  let dir: string;
  const registry = new FakeRegistry();

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'registry-restart-'));
    await registry.start();
  }, 180_000);
  afterAll(async () => {
    await registry.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('neither loses nor repeats a registry call when the process stops in the middle of the flow', async () => {
    registry.delayMs = 1500;
    const first = await startApi(dir, registry.url);
    const token = first.token!;
    expect(token).toMatch(/^sandbox_/);
    const today = new Date().toISOString().slice(0, 10);
    const created = await call(
      first.url,
      token,
      'POST',
      '/api/v2026.1/trainees',
      uniqueTrainee('v2026.1', {
        placements_attributes: [
          { urn: '654321', name: 'Fir School' },
          { urn: '654322', name: 'Pine School' },
        ],
      }),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.trainee_id;

    // Stop while the TRN request is in flight: the answer is still recorded before the process exits.
    await until(() => registry.callsTo('/trn-requests').length === 1);
    expect(await first.proc.stop('SIGTERM')).toBe(0);

    registry.delayMs = 0;
    const second = await startApi(dir, registry.url);
    const afterRestart = await call(second.url, token, 'GET', `/api/v2026.1/trainees/${id}`);
    expect(afterRestart.body.data).toMatchObject({ state: 'trn_received', trn: expect.stringMatching(/^7\d{6}$/) });

    const recommended = await call(second.url, token, 'POST', `/api/v2026.1/trainees/${id}/recommend-for-qts`, {
      data: { qts_standards_met_date: today },
    });
    expect(recommended.status).toBe(202);
    await until(async () => (await call(second.url, token, 'GET', `/api/v2026.1/trainees/${id}`)).body.data.state === 'awarded');
    expect(await second.proc.stop('SIGTERM')).toBe(0);

    // A third start has nothing left to do: no call is repeated.
    const third = await startApi(dir, registry.url);
    await new Promise((r) => setTimeout(r, 500));
    const final = await call(third.url, token, 'GET', `/api/v2026.1/trainees/${id}`);
    expect(final.body.data).toMatchObject({ state: 'awarded', awarded_at: `${today}T00:00:00.000Z` });
    expect(await third.proc.stop('SIGTERM')).toBe(0);

    const trnCalls = registry.callsTo('/trn-requests');
    const awardCalls = registry.callsTo('/award-recommendations');
    expect(trnCalls).toHaveLength(1);
    expect(awardCalls).toHaveLength(1);
    expect(trnCalls[0].body).toMatchObject({ trainee_id: id });
    expect(awardCalls[0].body).toMatchObject({ trainee_id: id, outcome_date: today, trn: final.body.data.trn });
    expect(trnCalls[0].idempotencyKey).not.toBe('');
  }, 60_000);
});
