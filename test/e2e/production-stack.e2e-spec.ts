/**
 * The production path end to end (`npm run test:production`, docs/operations.md "Its tests"): the API and the projector
 * as their own processes (PROJECTOR=external), on the EventStoreDB named by EVENTSTORE_URL and the
 * MongoDB named by MONGODB_URL, as docker-compose.yml deploys them. Writes are read back at once
 * through the other process's projection, both processes are ready, and reads keep answering
 * through a rebuild and its swap, then read the new store at once.
 *
 * Made for shared servers: the read models go in a database of their own (dropped afterwards), and
 * the checks name only the trainees this run created. Without both URLs the suite is reported as
 * skipped, loudly; a mock would prove nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { runAdmin } from '../support/admin-cli';
import { ensureBuilt, TsProcess } from '../support/processes';
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
    const dbName = `e2e_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const readModelUrl = withDatabase(mongodbUrl, dbName);
    const servers = { EVENTSTORE_URL: eventStoreUrl, MONGODB_URL: readModelUrl };
    let dir: string;
    let api: TsProcess;
    let projector: TsProcess;
    let url: string;
    let projectorUrl: string;
    let token: string;

    beforeAll(async () => {
      ensureBuilt();
      dir = mkdtempSync(join(tmpdir(), 'production-stack-'));
      const env = { ...servers, DATA_DIR: dir, LOG_LEVEL: 'info', PORT: '0', REGISTRY_TRN_DELAY_MS: '3600000' };
      projector = TsProcess.start('dist/apps/projector/src/main.js', env);
      projectorUrl = `http://127.0.0.1:${portOf(await projector.waitForLine(/health endpoints listening/))}`;
      api = TsProcess.start('dist/apps/api/src/main.js', { ...env, PROJECTOR: 'external', APP_ENV: 'sandbox' });
      url = `http://127.0.0.1:${portOf(await api.waitForLine(/trainee records API listening/))}`;
      token = api.lines.map((l) => /^\s+(sandbox_[0-9a-f]{64})$/.exec(l)?.[1]).find(Boolean)!;
      expect(token).toBeDefined();
    }, 180_000);

    afterAll(async () => {
      if (api) expect(await api.stop('SIGTERM')).toBe(0);
      if (projector) expect(await projector.stop('SIGTERM')).toBe(0);
      const admin = new MongoClient(mongodbUrl);
      try {
        await admin.db(dbName).dropDatabase();
      } finally {
        await admin.close();
      }
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
      const rebuilt = await runAdmin(['projections', 'rebuild', 'trainees'], dir, servers);
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

/** `url` with its database set to `dbName` (hosts, credentials and options kept; several hosts allowed). */
function withDatabase(url: string, dbName: string): string {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]*)(\/[^?]*)?/, `$1/${dbName}`);
}

function portOf(line: string): number {
  return (JSON.parse(line) as { port: number }).port;
}
