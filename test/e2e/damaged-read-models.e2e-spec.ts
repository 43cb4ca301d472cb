// Slow by design: the built API started three times on a damaged read store, each start rebuilding the read models from the log.
/**
 * A damaged read store (docs/operations.md "Health"): one page of `read-models.sqlite` overwritten
 * with garbage while the API is stopped. At its next start the API finds the damage (`quick_check`),
 * moves the file aside and logs where it went, builds fresh read models from the event log, and
 * every trainee reads back byte for byte as before; the kept state, in `state.sqlite`, is whole: an
 * idempotency key used before the damage replays its kept answer, and the webhook endpoint's
 * deliveries and position hold (nothing is delivered twice, the next change is delivered).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corruptPage, quickCheck } from '@app/stores/sqlite/read-models/testing/damage';
import { AdminWorker } from '../support/admin-cli';
import { startApiProcess } from '../support/durability';
import { ensureBuilt } from '../support/processes';
import { uniqueTrainee } from '../support/trainee-input';
import { WebhookReceiver } from '../support/webhook-receiver';

const TRAINEES = 40;
const base = '/api/v2026.1/trainees';

/**
 * The admin CLI loaded once in a process of its own, for commands run again here; the first run of
 * each command, and the runs about the program itself, start it as operators do.
 */
const admin = AdminWorker.forFile();

describe('a damaged read store at start (docs/operations.md "Health")', () => {
  let dir: string;
  let receiver: WebhookReceiver;
  let api: Awaited<ReturnType<typeof startApiProcess>> | null = null;
  // No TRN arrives meanwhile: every answer stays as it was read before the damage.
  const env = { REGISTRY_TRN_DELAY_MS: '2147483647' };
  /** The trainees written, and their answers as read before any damage. */
  const ids: string[] = [];
  let before: string[] = [];
  /** The demo provider's token, printed once by the first start. */
  let token: string;
  const read = (url: string) =>
    Promise.all(ids.map(async (id) => (await fetch(`${url}${base}/${id}`, { headers: { authorization: `Bearer ${token}` } })).text()));

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'damaged-read-models-'));
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await api?.proc.stop('SIGKILL');
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves it aside and rebuilds it from the log; the trainees read as before, and the kept state holds', async () => {
    api = await startApiProcess(dir, env);
    token = api.token!;
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${api!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const added = await admin.run(['webhook', 'add', '--ukprn', '10000001', '--url', receiver.url], dir);
    expect(added.code).toBe(0);
    const endpoint = /Webhook endpoint (wh_[0-9a-f]+) added/.exec(added.stdout)![1];

    for (let from = 0; from < TRAINEES; from += 8) {
      const created = await Promise.all(Array.from({ length: 8 }, () => call('POST', base, uniqueTrainee('v2026.1'))));
      for (const res of created) ids.push(((await res.json()) as { data: { trainee_id: string } }).data.trainee_id);
    }
    const keyed = uniqueTrainee('v2026.1');
    const first = await call('POST', base, keyed, { 'idempotency-key': 'before-the-damage' });
    expect(first.status).toBe(201);
    const firstAnswer = await first.text();
    ids.push((JSON.parse(firstAnswer) as { data: { trainee_id: string } }).data.trainee_id);
    before = await read(api.url);
    const changes = ((await (await call('GET', '/api/v2026.1/changes?limit=1000')).json()) as { data: unknown[] }).data.length;
    await receiver.until(() => receiver.received.length >= changes, 30_000);
    // Stopped once every delivery is recorded as delivered (else one would rightly be sent again).
    let deliveries = await admin.run(['webhook', 'deliveries', endpoint, '--limit', '1000'], dir);
    for (const until = Date.now() + 30_000; /\tpending\t/.test(deliveries.stdout) && Date.now() < until;)
      deliveries = await admin.run(['webhook', 'deliveries', endpoint, '--limit', '1000'], dir);
    expect(
      deliveries.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split('\t')[2]),
    ).toEqual(Array(changes).fill('delivered'));

    await api.proc.stop('SIGTERM');
    api = null;
    const file = join(dir, 'read-models.sqlite');
    corruptPage(file, 'trainees_');
    expect(quickCheck(file)).not.toEqual(['ok']);

    api = await startApiProcess(dir, env);
    const moved = api.proc.lines.map((l) => JSON.parse(l.startsWith('{') ? l : '{}') as Record<string, unknown>).find((l) => l.moved_to);
    expect(moved).toMatchObject({ level: 50, msg: 'read store is damaged: moved aside; building a fresh one from the event log' });
    expect(existsSync(moved!.moved_to as string)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.startsWith('read-models.sqlite.damaged-'))).toEqual([String(moved!.moved_to).split('/').pop()]);

    const after = await read(api.url);
    // Ids only in a failure's output, never the trainees' values.
    expect(ids.filter((id, i) => after[i] !== before[i])).toEqual([]);
    const replayed = await call('POST', base, keyed, { 'idempotency-key': 'before-the-damage' });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.text()).toBe(firstAnswer);
    expect((await admin.run(['webhook', 'deliveries', endpoint, '--limit', '1000'], dir)).stdout).toBe(deliveries.stdout);

    // The dispatcher goes on from its position: the next change is delivered, and none before it again.
    expect((await call('PATCH', `${base}/${ids[0]}`, { data: { middle_names: 'Afterwards' } })).status).toBe(200);
    await receiver.until(() => receiver.received.length > changes, 30_000);
    const messageIds = receiver.received.map((r) => r.headers['webhook-id']);
    expect(new Set(messageIds).size).toBe(messageIds.length);
  }, 120_000);

  it('admin projections rebuild on a damaged read store moves it aside and builds a fresh one, never reading it', async () => {
    await api!.proc.stop('SIGTERM');
    api = null;
    const file = join(dir, 'read-models.sqlite');
    corruptPage(file, 'trainees_');
    const rebuilt = await admin.run(['projections', 'rebuild', 'trainees'], dir, env);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(
      /^The read store was damaged: moved aside to .*read-models\.sqlite\.damaged-\d{8}T\d{6}Z; every projection was built afresh/,
    );
    expect(quickCheck(file)).toEqual(['ok']);
    api = await startApiProcess(dir, env);
    // The first test's PATCH changed the first trainee since `before`.
    const after = await read(api.url);
    expect(ids.slice(1).filter((id, i) => after[i + 1] !== before[i + 1])).toEqual([]);
  }, 120_000);
});
