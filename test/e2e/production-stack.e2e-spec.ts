/**
 * The production path end to end (`npm run test:production`, docs/operations.md "Its tests"): the API and the projector
 * as their own processes (PROJECTOR=external), on the EventStoreDB named by EVENTSTORE_URL and the
 * MongoDB named by MONGODB_URL, as docker-compose.yml deploys them. Writes are read back at once
 * through the other process's projection, both processes are ready, and reads keep answering
 * through a rebuild and its swap, then read the new store at once.
 *
 * Run after run on the same servers, each run continues one deployment (test/support/production-stack.ts): the read models,
 * data keys and the test's service key in one MongoDB database, kept, so each run's projector opens the trainees earlier runs
 * left in the log; the token comes from the admin CLI, since the sandbox prints one only into a log without a provider. The checks
 * name only the trainees this run created. Without both URLs the suite is reported as skipped, loudly; a mock would prove nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '../support/admin-cli';
import { ensureBuilt, TsProcess } from '../support/processes';
import { demoToken, mongoStackKeyKeeper, stackDeployment, type StackDeployment } from '../support/production-stack';
import { uniqueTrainee } from '../support/trainee-input';

const eventStoreUrl = process.env.EVENTSTORE_URL?.trim();
const mongodbUrl = process.env.MONGODB_URL?.trim();

interface Answer {
  status: number;
  body: any;
}

if (!eventStoreUrl || !mongodbUrl) {
  const skipped =
    'Production stack e2e SKIPPED: EVENTSTORE_URL and MONGODB_URL are not both set (npm run test:production starts both servers with Docker)';
  describe('the production stack: API and projector on EventStoreDB and MongoDB', () => {
    console.warn(skipped);
    it.skip(skipped, () => undefined);
  });
} else {
  describe('the production stack: API and projector on EventStoreDB and MongoDB', () => {
    let deployment: StackDeployment;
    let dir: string;
    let api: TsProcess;
    let projector: TsProcess;
    let url: string;
    let projectorUrl: string;
    let token: string;

    beforeAll(async () => {
      ensureBuilt();
      dir = mkdtempSync(join(tmpdir(), 'production-stack-'));
      deployment = await stackDeployment(eventStoreUrl, mongodbUrl, dir, mongoStackKeyKeeper(mongodbUrl));
      const env = { ...deployment.env, DATA_DIR: dir, LOG_LEVEL: 'info', PORT: '0', REGISTRY_TRN_DELAY_MS: '3600000' };
      projector = TsProcess.start('dist/apps/projector/src/main.js', env);
      projectorUrl = `http://127.0.0.1:${portOf(await projector.waitForLine(/health endpoints listening/))}`;
      api = TsProcess.start('dist/apps/api/src/main.js', { ...env, PROJECTOR: 'external', APP_ENV: 'sandbox' });
      url = `http://127.0.0.1:${portOf(await api.waitForLine(/trainee records API listening/))}`;
      token = await demoToken(dir, deployment.env);
    }, 180_000);

    // The database stays: the log keeps this run's trainees, which the next run opens with its data keys.
    afterAll(async () => {
      if (api) expect(await api.stop('SIGTERM')).toBe(0);
      if (projector) expect(await projector.stop('SIGTERM')).toBe(0);
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    /** Sends a request with the sandbox token; JSON in and out. */
    async function send(method: string, path: string, body?: unknown): Promise<Answer> {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? null : JSON.parse(text) };
    }

    /** The sandbox token works once the projector has projected it (tokens are read models too). */
    async function untilAuthorised(): Promise<void> {
      for (let i = 0; i < 200; i++) {
        if ((await send('GET', '/api/v2025.0/trainees?per_page=1')).status !== 401) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the sandbox token was never accepted');
    }

    it('reads every write back at once across the two processes, and both are ready', async () => {
      await untilAuthorised();
      const created = await send('POST', '/api/v2025.0/trainees', uniqueTrainee('v2025.0'));
      expect(created.status).toBe(201);
      const id: string = created.body.data.trainee_id;

      const read = await send('GET', `/api/v2025.0/trainees/${id}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ trainee_id: id, first_names: created.body.data.first_names });

      const patched = await send('PATCH', `/api/v2025.0/trainees/${id}`, { data: { first_names: 'Production' } });
      expect(patched.status).toBe(200);
      expect((await send('GET', `/api/v2025.0/trainees/${id}`)).body.data.first_names).toBe('Production');

      for (const ready of [`${url}/readyz`, `${projectorUrl}/readyz`]) {
        const res = await fetch(ready);
        expect({ url: ready, status: res.status }).toEqual({ url: ready, status: 200 });
      }
    });

    it('answers every read through a rebuild and its swap, then reads the new store at once', async () => {
      await untilAuthorised();
      const created = await send('POST', '/api/v2025.0/trainees', uniqueTrainee('v2025.0'));
      expect(created.status).toBe(201);
      const id: string = created.body.data.trainee_id;

      let reading = true;
      const statuses: number[] = [];
      const reader = (async () => {
        while (reading) statuses.push((await send('GET', `/api/v2025.0/trainees/${id}`)).status);
      })();
      const rebuilt = await runAdmin(['projections', 'rebuild', 'trainees'], dir, deployment.env);
      reading = false;
      await reader;
      expect({ code: rebuilt.code, stderr: rebuilt.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);

      // A write after the swap lands in the new store, and the next read sees it.
      expect((await send('PATCH', `/api/v2025.0/trainees/${id}`, { data: { first_names: 'AfterSwap' } })).status).toBe(200);
      expect((await send('GET', `/api/v2025.0/trainees/${id}`)).body.data.first_names).toBe('AfterSwap');
    }, 120_000);
  });
}

function portOf(line: string): number {
  return (JSON.parse(line) as { port: number }).port;
}
