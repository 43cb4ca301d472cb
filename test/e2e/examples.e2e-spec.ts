import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookOperations } from '@app/webhooks/write';
import { sealedSecretsOf, type ServiceKeyring } from '@app/runtime/process';
import { SERVICE_KEY } from '../../apps/api/src/composition/tokens';
import type { Change } from '../../examples/api-types';
import { createReceiver } from '../../examples/webhook-receiver';
import { RunningApi } from '../support/api-harness';
import { TsProcess } from '../support/processes';
import { uniqueTrainee } from '../support/trainee-input';

/** Runs the feed client example once (`--once`) and returns its output lines. */
async function runFeedClient(env: Record<string, string>): Promise<string[]> {
  const client = TsProcess.start('examples/feed-client.ts', env, ['--once']);
  const code = await client.exited;
  expect({ code, output: client.lines }).toMatchObject({ code: 0 });
  return client.lines.filter((l) => l !== '');
}

describe('examples/ (README "Keeping in sync")', () => {
  let api: RunningApi;
  let token: string;
  let dir: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000501');
    dir = mkdtempSync(join(tmpdir(), 'examples-'));
  });

  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('api-types.ts is what generate-types.ts makes of the served OpenAPI document (npm run examples:types)', async () => {
    const check = TsProcess.start('examples/generate-types.ts', {}, [api.baseUrl, 'v2026.1', '--check']);
    const code = await check.exited;
    expect({ code, output: check.lines }).toEqual({ code: 0, output: ['examples/api-types.ts is up to date'] });
    // It can fail: another version's document makes another file (its banner names that version).
    const other = TsProcess.start('examples/generate-types.ts', {}, [api.baseUrl, 'v2025.0', '--check']);
    expect(await other.exited).toBe(1);
  });

  it('the feed client prints each change once, stores its cursor, and resumes from it', async () => {
    const res = await api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1'));
    expect(res.status).toBe(201);
    const id = res.body.data.trainee_id as string;
    const env = { BASE_URL: api.baseUrl, TOKEN: token, CURSOR_FILE: join(dir, 'cursor.txt') };
    const first = await runFeedClient(env);
    const feed = (await api.request('GET', '/api/v2026.1/changes', token)).body;
    expect(first).toHaveLength(feed.data.length);
    expect(first[0]).toMatch(new RegExp(`^\\S+ ${id} TraineeRegistered \\[.*first_names.*\\] state=\\w+ trn=-$`));
    expect(readFileSync(join(dir, 'cursor.txt'), 'utf8').trim()).toBe(feed.next_cursor);

    const patched = await api.request('PATCH', `/api/v2026.1/trainees/${id}`, token, { data: { middle_names: 'Resumed' } });
    expect(patched.status).toBe(200);
    const second = await runFeedClient(env);
    expect(second).toEqual([expect.stringMatching(new RegExp(`^\\S+ ${id} TraineeUpdated \\[middle_names\\] `))]);
  });

  it('the webhook receiver takes verified deliveries once each and refuses a forged one', async () => {
    const changes: Change[] = [];
    // The endpoint's URL comes first (its port), its secret with the endpoint: reserve a free port, then listen there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const url = `http://127.0.0.1:${port}/hooks`;
    const secrets = sealedSecretsOf(api.app.get<ServiceKeyring>(SERVICE_KEY));
    const ops = new WebhookOperations(api.infra.eventStore, api.infra.readModel, { allowHttp: true, allowPrivate: true }, secrets);
    const { secret } = await ops.add({ ukprn: '10000501', url, eventTypes: ['TraineeRegistered'] });
    const receiver = createReceiver(secret, (change) => changes.push(change));
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    try {
      await api.infra.catchUp();
      const res = await api.request('POST', '/api/v2026.1/trainees', token, uniqueTrainee('v2026.1'));
      const deadline = Date.now() + 10_000;
      while (changes.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(changes).toEqual([expect.objectContaining({ trainee_id: res.body.data.trainee_id, type: 'TraineeRegistered' })]);

      const forged = await fetch(url, {
        method: 'POST',
        headers: { 'webhook-id': 'msg_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
        body: JSON.stringify(changes[0]),
      });
      expect(forged.status).toBe(401);
      expect(changes).toHaveLength(1);
    } finally {
      receiver.close();
    }
  });
});
