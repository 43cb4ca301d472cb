/**
 * Rotating the service key (docs/operations.md "Rotating the service key"): an export made before
 * a rotation, once the old version is retired, opens no data key at all — an erased trainee's
 * least of all — while every living trainee reads as before through the API and the admin CLI,
 * writes made while the rotation ran read back, and each webhook secret, sealed again under the
 * new version, opens for its own endpoint only.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readKeyring } from '@app/keys';
import { DataKeyNotOpened, DataKeys, type DataKeyStore } from '@app/personal-data';
import { SANDBOX_KEY_FILE, sealedSecretsOf, versionedKeys } from '@app/runtime/process';
import { SecretNotOpened } from '@app/webhooks/write';
import { openSqliteEventStore, SqliteDataKeyStore } from '@app/stores/sqlite';
import { AdminWorker, runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const UKPRN = '10000141';
const base = '/api/v2026.1/trainees';

/** The data keys of an export's `data_key` lines, by trainee id (null: erased when exported). */
function exportedKeys(text: string): Map<string, string | null> {
  const keys = new Map<string, string | null>();
  for (const line of text.trimEnd().split('\n')) {
    if (!line.startsWith('{"data_key"')) continue;
    const { stream_id, wrapped } = (JSON.parse(line) as { data_key: { stream_id: string; wrapped: string | null } }).data_key;
    if (stream_id.startsWith('trainee-')) keys.set(stream_id.slice('trainee-'.length), wrapped);
  }
  return keys;
}

/** Whether `wrapped`, the data key of `traineeId`, opens under the `key-encryption` keys of the keyring file `file`. */
async function opens(file: string, traineeId: string, wrapped: string): Promise<boolean> {
  const store = {
    get: async () => Buffer.from(wrapped, 'base64'),
    erasedSince: async () => ({ mark: 0, traineeIds: [] }),
  } as unknown as DataKeyStore;
  const keys = new DataKeys(store, versionedKeys(readKeyring(file, 'keyring'), 'key-encryption'));
  try {
    return (await keys.existingKey(traineeId)) instanceof Buffer;
  } catch (err) {
    if (err instanceof DataKeyNotOpened) return false;
    throw err;
  }
}

describe('rotating the service key (admin keys rotate, admin keys retire)', () => {
  let api: RunningApi;
  let token: string;
  let work: string;
  /** The admin CLI in a process loaded once; the rotation and a refused retirement run as the program itself. */
  let admin: AdminWorker;

  beforeAll(async () => {
    admin = AdminWorker.start();
    api = await RunningApi.start();
    token = await api.providerToken(UKPRN);
    work = mkdtempSync(join(tmpdir(), 'key-rotation-'));
  });
  afterAll(async () => {
    await admin.close();
    await api.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('makes an export from before the rotation unopenable once the old version is retired, and keeps every living trainee', async () => {
    const keyring = join(api.dataDir, SANDBOX_KEY_FILE);
    const created = async (overrides: Record<string, unknown> = {}) => {
      const res = await api.request('POST', base, token, uniqueTrainee('v2026.1', overrides));
      expect(res.status).toBe(201);
      return res.body.data.trainee_id as string;
    };
    const erasedId = await created({ last_name: 'Vandersloot', first_names: 'Griselda' });
    const living = [await created(), await created(), await created()];
    const hook = await admin.run(['webhook', 'add', '--ukprn', UKPRN, '--url', 'http://127.0.0.1:9/hooks'], api.dataDir);
    expect(hook.code).toBe(0);
    const endpointId = /Webhook endpoint (wh_[0-9a-f]+) added/.exec(hook.stdout)![1];

    const before = join(work, 'before.jsonl');
    expect((await admin.run(['events', 'export', '--output', before], api.dataDir)).code).toBe(0);
    const oldKeyring = join(work, 'old-keyring');
    copyFileSync(keyring, oldKeyring);
    expect((await admin.run(['trainee', 'erase', erasedId, '--reason', 'Request DPO-2026-41'], api.dataDir)).code).toBe(0);
    await api.infra.catchUp();
    const answers = new Map<string, unknown>();
    for (const id of living) answers.set(id, (await api.request('GET', `${base}/${id}`, token)).body);

    // The rotation runs while the API takes new trainees and changes to living ones.
    const written: Array<{ id: string; middle_names: string }> = [];
    let rotating = true;
    const writes = (async () => {
      for (let n = 0; rotating || n < 3; n++) {
        const id = await created();
        const patched = await api.request('PATCH', `${base}/${living[n % living.length]}`, token, { data: { middle_names: `Rota${n}` } });
        expect(patched.status).toBe(200);
        written.push({ id, middle_names: `Rota${n}` });
      }
    })();
    const rotated = await runAdmin(['keys', 'rotate'], api.dataDir).finally(() => (rotating = false));
    await writes;
    expect(rotated.stderr).toBe('');
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^Version 2 is current\.\nData keys: [1-9]\d* wrapped again, /);
    expect(rotated.stdout).toMatch(/Webhook secrets: 1 sealed again, 0 under version 2 already\./);
    // The current version cannot be retired, nor one a key is still wrapped under: one made by a
    // process that has not yet read the new keyring. A second pass wraps it again.
    expect((await admin.run(['keys', 'retire', '2'], api.dataDir)).stderr).toMatch(/version 2 is current/);
    const lagging = SqliteDataKeyStore.open(api.dataDir);
    try {
      await new DataKeys(lagging, versionedKeys(readKeyring(oldKeyring, 'keyring'), 'key-encryption')).keyFor('made-under-version-1');
    } finally {
      await lagging.close();
    }
    const refused = await runAdmin(['keys', 'retire', '1'], api.dataDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/version 1 still wraps [1-9]\d* data keys and 0 webhook secrets: run admin keys rotate --resume/);
    expect((await admin.run(['keys', 'rotate', '--resume'], api.dataDir)).stdout).toMatch(
      /^Version 2 is current\.\nData keys: [1-9]\d* wrapped again/,
    );
    const retired = await admin.run(['keys', 'retire', '1'], api.dataDir);
    expect(retired.stderr).toBe('');
    expect(retired.code).toBe(0);
    expect(readFileSync(keyring, 'utf8')).not.toContain(readFileSync(oldKeyring, 'utf8').trim());

    // The export from before the rotation: with the old version its keys open (the check can fail) …
    const exported = exportedKeys(readFileSync(before, 'utf8'));
    expect(exported.get(erasedId)).toEqual(expect.any(String));
    for (const id of [erasedId, ...living]) expect(await opens(oldKeyring, id, exported.get(id)!)).toBe(true);
    // … and with the keyring as it is now, none does: not the erased trainee's, nor any other.
    for (const [id, wrapped] of exported) if (wrapped !== null) expect(await opens(keyring, id, wrapped)).toBe(false);
    const fresh = join(work, 'fresh');
    const imported = await admin.run(['events', 'import', before], fresh, { DATA_KEY_FILE: keyring });
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(/another service key/);

    // Every living trainee reads as before; every write made during the rotation reads back, also when opened from the log.
    await api.infra.catchUp();
    const last = new Map(written.map((w, n) => [living[n % living.length], w.middle_names]));
    for (const id of living) {
      const now = (await api.request('GET', `${base}/${id}`, token)).body as { data: Record<string, unknown> };
      const was = answers.get(id) as { data: Record<string, unknown> };
      expect({ ...now.data, middle_names: null, updated_at: null }).toEqual({ ...was.data, middle_names: null, updated_at: null });
      expect(now.data.middle_names).toBe(last.get(id));
    }
    for (const { id } of written) expect((await api.request('GET', `${base}/${id}`, token)).status).toBe(200);
    const rebuilt = await admin.run(['projections', 'rebuild', 'trainees'], api.dataDir);
    expect(rebuilt.code).toBe(0);
    for (const id of [...living, ...written.map((w) => w.id)]) {
      const history = await admin.run(['trainee', 'history', id, '--json'], api.dataDir);
      expect(history.code).toBe(0);
      expect(history.stdout).not.toContain('[erased]');
    }
    expect((await api.request('GET', `${base}/${erasedId}`, token)).status).toBe(404);

    // The endpoint's secret, sealed again under version 2, opens for its endpoint and for no other.
    const log = openSqliteEventStore(api.dataDir);
    try {
      const events = await log.readStream(`webhook-${endpointId}`);
      const resealed = events.find((e) => e.type === 'WebhookSecretResealed')!.data as { secret: string };
      expect(resealed.secret).toMatch(/^sealed2\.2\./);
      const secrets = sealedSecretsOf(readKeyring(keyring, 'keyring'));
      expect(secrets.open(resealed.secret, endpointId)).toMatch(/^whsec_/);
      expect(() => secrets.open(resealed.secret, 'wh_000000000000000000000000')).toThrow(SecretNotOpened);
      const original = events.find((e) => e.type === 'WebhookEndpointAdded')!.data as { secret: string };
      expect(() => secrets.open(original.secret, endpointId)).toThrow(SecretNotOpened);
    } finally {
      await log.close();
    }
  }, 300_000);
});
