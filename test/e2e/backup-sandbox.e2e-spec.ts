// Slow by design: 30 creates whose webhook deliveries fail, then the restore and four starts of the service, as the docs run them.
/**
 * A backup and restore in the sandbox, as README.md and docs/operations.md "Backups and restore"
 * write them: 30 creates sent with an `Idempotency-Key`, their changes pushed to a webhook
 * endpoint that fails every delivery (so each stays pending), then `admin backup create`. No byte
 * of the backup holds a name, an email or a TRN of theirs in the clear (their kept answers and the
 * deliveries' payloads are left out). The restore needs the service key the backup was made under:
 * without one, or with another, it says so in one sentence and copies nothing; with the old data
 * dir's `data-key` as `DATA_KEY_FILE` it restores, and the service started on the restored data
 * dir with that key serves the trainees and makes each pending delivery again, while a start
 * without it is refused, naming `DATA_KEY_FILE`, and writes nothing.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminWorker, runAdmin } from '../support/admin-cli';
import { allFilesText, filesText } from '../support/data-dir-files';
import { startApiProcess } from '../support/durability';
import { ensureBuilt, TsProcess } from '../support/processes';
import { uniqueTrainee } from '../support/trainee-input';
import { WebhookReceiver } from '../support/webhook-receiver';

const CREATES = 30;
const base = '/api/v2025.0/trainees';

type Api = Awaited<ReturnType<typeof startApiProcess>>;

async function waitFor(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  for (const until = Date.now() + timeoutMs; !(await check());) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `count` distinctive values of `kind` (letters only, so that no hash or number in a file can hold one by chance). */
const values = (kind: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${kind}${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)])}Zq${process.pid}`);

/**
 * The admin CLI loaded once in a process of its own, for the restore's refusals; the backup, the
 * documented restore, the webhook set-up and the refusal to start without the key run the program.
 */
const admin = AdminWorker.forFile();

describe('a backup in the sandbox, restored as the docs say', () => {
  let root: string;
  let data: string;
  let backups: string;
  let receiver: WebhookReceiver;
  let failing = true;
  const apis: Api[] = [];

  beforeAll(async () => {
    ensureBuilt();
    root = mkdtempSync(join(tmpdir(), 'backup-sandbox-'));
    data = join(root, 'data');
    backups = join(root, 'backups');
    receiver = await WebhookReceiver.start(() => (failing ? 500 : 204));
  });
  afterAll(async () => {
    for (const api of apis) await api.proc.stop('SIGKILL');
    await receiver.close();
    rmSync(root, { recursive: true, force: true });
  });

  const start = async (dataDir: string, env: Record<string, string> = {}) => {
    const env0 = { REGISTRY_TRN_DELAY_MS: '0', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_MAX_MS: '500', ...env };
    const api = await startApiProcess(dataDir, env0);
    apis.push(api);
    return api;
  };
  const call = (api: Api, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('holds no personal value in the clear, and restores with the data key of the data dir it came from', async () => {
    const api = await start(data);
    const token = api.token!;
    expect((await runAdmin(['webhook', 'add', '--ukprn', '10000001', '--url', receiver.url], data)).code).toBe(0);
    const [firsts, lasts, emails] = [values('Firstq', CREATES), values('Lastq', CREATES), values('mailq', CREATES)];
    const ids: string[] = [];
    const bodies = firsts.map((first, i) => {
      const body = uniqueTrainee('v2025.0', { first_names: first, last_name: lasts[i], email: `${emails[i]}@example.org` });
      delete body.data.trn;
      return body;
    });
    // Ten at a time, each id kept at its body's index.
    for (let from = 0; from < CREATES; from += 10) {
      await Promise.all(
        bodies.slice(from, from + 10).map(async (body, j) => {
          const res = await call(api, token, 'POST', base, body, { 'idempotency-key': `create-${from + j}` });
          expect(res.status).toBe(201);
          ids[from + j] = ((await res.json()) as { data: { trainee_id: string } }).data.trainee_id;
        }),
      );
    }
    // A duplicate under a key of its own: its kept answer (409) holds the trainee it duplicates.
    expect((await call(api, token, 'POST', base, bodies[0], { 'idempotency-key': 'duplicate-0' })).status).toBe(409);
    const trns: string[] = [];
    await waitFor(async () => {
      trns.length = 0;
      for (const id of ids) {
        const trn = ((await (await call(api, token, 'GET', `${base}/${id}`)).json()) as { data: { trn: string | null } }).data.trn;
        if (trn === null) return false;
        trns.push(trn);
      }
      return true;
    });
    // Each trainee's first change was tried (and failed): every delivery is pending at the backup.
    await receiver.until(() => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size >= CREATES, 60_000);
    const created = await runAdmin(['backup', 'create', '--output', join(backups, 'b1')], data, { BACKUP_DIR: backups });
    expect(created.code).toBe(0);
    await api.proc.stop('SIGTERM');

    const inBackup = allFilesText(join(backups, 'b1'));
    const personal = [...firsts, ...lasts, ...emails, ...trns.map((trn) => `"trn":"${trn}"`)];
    expect(personal.filter((v) => inBackup.includes(v))).toEqual([]);
    // The data dir's kept answers and payloads hold them: the scan reads what it should.
    const kept = filesText(data, 'state.sqlite');
    expect(kept.includes(firsts[0]) && kept.includes(`"trn":"${trns[0]}"`)).toBe(true);

    const restored = join(root, 'restored');
    const keyless = await admin.run(['backup', 'restore', join(backups, 'b1')], restored, { BACKUP_DIR: backups });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toMatch(/^Error: backup restore needs the service key the backup was made under: set DATA_KEY_FILE/);
    const otherKey = join(root, 'other-key');
    writeFileSync(otherKey, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const wrong = await admin.run(['backup', 'restore', join(backups, 'b1')], restored, { BACKUP_DIR: backups, DATA_KEY_FILE: otherKey });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`was made under another service key than ${otherKey}: set DATA_KEY_FILE`);
    expect(existsSync(restored)).toBe(false);

    const asDocumented = { BACKUP_DIR: backups, DATA_KEY_FILE: join(data, 'data-key') };
    const done = await runAdmin(['backup', 'restore', join(backups, 'b1')], restored, asDocumented);
    expect(done.stderr).not.toMatch(/Error/);
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`start the service on it with DATA_DIR=${restored} DATA_KEY_FILE=${join(data, 'data-key')}`);

    // Started without the key: refused, naming DATA_KEY_FILE, and no key made beside the data.
    const files = readdirSync(restored).sort();
    const bare = TsProcess.start('dist/apps/api/src/main.js', { DATA_DIR: restored, PORT: '0' });
    expect(await bare.exited).not.toBe(0);
    expect(bare.lines.join('\n')).toMatch(
      /holds data \(events\.sqlite, keys\.sqlite, state\.sqlite\) but no service key: set DATA_KEY_FILE/,
    );
    // Said once, without a stack: it is the operator's to fix.
    expect(bare.lines.filter((line) => line.includes('but no service key'))).toHaveLength(1);
    expect(bare.lines.join('\n')).not.toMatch(/\n\s+at /);
    const projector = TsProcess.start('dist/apps/projector/src/main.js', { DATA_DIR: restored, PORT: '0' });
    expect(await projector.exited).not.toBe(0);
    expect(projector.lines.join('\n')).toMatch(/but no service key: set DATA_KEY_FILE/);
    const listed = await runAdmin(['provider', 'list'], restored);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toMatch(/but no service key: set DATA_KEY_FILE/);
    expect(readdirSync(restored).sort()).toEqual(files);

    failing = false;
    const pending = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    const again = await start(restored, { DATA_KEY_FILE: join(data, 'data-key') });
    const read = await call(again, token, 'GET', `${base}/${ids[7]}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { first_names: string } }).data.first_names).toBe(firsts[7]);
    // A retried create ran again (no kept answer was restored) and met its trainee.
    expect((await call(again, token, 'POST', base, bodies[3], { 'idempotency-key': 'create-3' })).status).toBe(409);
    // Every delivery pending at the backup is made again from the feed, the TRN changes' with their TRN.
    const delivered = () => new Set(receiver.received.filter((r) => r.status === 204).map((r) => r.headers['webhook-id']));
    const trnsSent = () => {
      const sent = receiver.received.filter((r) => r.status === 204).map((r) => r.body);
      return trns.filter((trn) => sent.some((b) => b.includes(`"trn":"${trn}"`)));
    };
    await receiver.until(() => [...pending].every((id) => delivered().has(id)) && trnsSent().length === trns.length, 60_000);
  }, 240_000);
});
