import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { keyFingerprint } from '@app/audit';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { logPosition, newEventId, toEventData } from '@app/event-sourcing';
import { REGISTRY_PM_CHECKPOINT } from '@app/registry';
import { deriveKey } from '@app/runtime/process';
import { openStores } from '@app/composition';
import { SQLITE_BACKUP_FILES as FILES, SqliteIdempotencyStore, SqliteReadModel, SqliteWebhookOutbox } from '@app/stores/sqlite';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import type { WebhookEndpointRecord } from '@app/webhooks/delivery';
import { BackupRefused, createBackup, restoreFiles, verifyBackup } from '.';
import { fileDigest, readManifest, sealManifest, writeManifest, type BackupManifest } from './manifest';

const SERVICE_KEY = randomBytes(32);
const TRAINEES = ['BkA', 'BkB', 'BkC', 'BkD'];
const NOW = new Date('2026-12-01T10:00:00.000Z');
const ANSWER = { status: 201, contentType: 'application/json', body: '{"data":{"trainee_id":"BkA","last_name":"Keptanswername"}}' };
const ENDPOINT: WebhookEndpointRecord = {
  endpoint_id: 'wh_backup',
  ukprn: '10000001',
  url: 'http://127.0.0.1:9/hooks',
  event_types: [],
  api_version: 'v2026.1',
  secret: 'sealed2.1.not-opened-here',
  status: 'active',
  added_position: logPosition(1),
  disabled_reason: null,
};
/** Two deliveries: the one at position 2 sent, the one at 3 pending; each payload holds a TRN no backup may hold. */
const DELIVERIES = [2, 3].map((n) => ({
  delivery_id: `wh_backup.${n}`,
  endpoint_id: 'wh_backup',
  position: logPosition(n),
  trainee_id: 'BkA',
  message_id: `msg_wh_backup_${n}`,
  payload: `{"trainee_id":"BkA","trn":"77001${n}"}`,
  next_attempt_at: NOW.getTime(),
}));

const openDataDir = (dataDir: string) =>
  openStores({ dataDir, eventStoreUrl: null, mongodbUrl: null }, { personalData: { kek: deriveKey(SERVICE_KEY, 'key-encryption') } });

/**
 * A data dir whose trainees' personal values are sealed with their data keys, as the API stores
 * them, with kept state: an idempotency key's answer, the webhook dispatcher's and the registry
 * process manager's positions.
 */
async function sealedDataDir(dir: string): Promise<void> {
  const stores = await openDataDir(dir);
  try {
    const keys = stores.idempotencyStore();
    const claim = await keys.claim('token-1', 'key-1', 'fingerprint-1', NOW);
    if (claim.outcome === 'claimed') await keys.complete('token-1', 'key-1', claim.claim, ANSWER);
    await keys.close();
    const outbox = await stores.webhookOutbox();
    await outbox.ingest({ endpoints: [ENDPOINT], deliveries: DELIVERIES, abandonFor: [], at: NOW.getTime(), checkpoint: logPosition(3) });
    await outbox.recordAttempt('wh_backup.2', { delivered: true, at: NOW.getTime(), status: 204 });
    await outbox.close();
    await stores.consumerCheckpoints.writeCheckpoint(REGISTRY_PM_CHECKPOINT, logPosition(2));
    for (const id of TRAINEES)
      await stores.eventStore.appendToStream(
        traineeStreamId(id),
        toEventData(
          exampleRegistration({ trainee_id: id, ukprn: '10000001', details: { last_name: `Backupname${id}` } }),
          { occurredAt: '2026-01-01T00:00:00.000Z' },
          newEventId,
        ),
      );
  } finally {
    await stores.close();
  }
}

/**
 * The kept state of the data dir `dir` as its stores read it: what a retry of the kept key finds,
 * the dispatcher's position, its deliveries (id, status, payload) and the registry's position.
 */
async function keptState(dir: string): Promise<{ replay: string; outbox: number; deliveries: unknown[]; registry: number }> {
  const stores = await openDataDir(dir);
  try {
    const keys = stores.idempotencyStore();
    const outbox = await stores.webhookOutbox();
    const kept = {
      replay: (await keys.claim('token-1', 'key-1', 'fingerprint-1', NOW)).outcome,
      outbox: await outbox.checkpoint(),
      deliveries: (await outbox.deliveries('wh_backup', 10)).map((d) => [d.delivery_id, d.status, d.payload]),
      registry: await stores.consumerCheckpoints.readCheckpoint(REGISTRY_PM_CHECKPOINT),
    };
    await keys.close();
    await outbox.close();
    return kept;
  } finally {
    await stores.close();
  }
}

/**
 * What a restore keeps of that state: no kept answer (a retry runs again), the sent delivery without
 * its payload, the pending one left out and the dispatcher set back to before it (it makes it
 * again), the registry's position.
 */
const KEPT = { replay: 'claimed', outbox: 2, deliveries: [['wh_backup.2', 'delivered', '']], registry: 2 };

/**
 * Makes the backup in `dir` one taken before `state.sqlite`: its kept state in a `read-models.sqlite`
 * of its own (the tables, and the registry's position in `projection_checkpoints`), the manifest
 * naming that file in its place and sealed again.
 */
async function asOlderBackup(dir: string): Promise<void> {
  const file = join(dir, 'read-models.sqlite');
  const keys = new SqliteIdempotencyStore(file);
  const claim = await keys.claim('token-1', 'key-1', 'fingerprint-1', NOW);
  if (claim.outcome === 'claimed') await keys.complete('token-1', 'key-1', claim.claim, ANSWER);
  keys.close();
  const outbox = new SqliteWebhookOutbox(file);
  await outbox.ingest({ endpoints: [], deliveries: [], abandonFor: [], at: NOW.getTime(), checkpoint: logPosition(3) });
  outbox.close();
  const positions = new SqliteReadModel(file);
  await positions.writeCheckpoint(REGISTRY_PM_CHECKPOINT, logPosition(2));
  positions.close();
  rmSync(join(dir, 'state.sqlite'));
  const { service_key_check: _check, mac: _mac, ...fields } = readManifest(dir) as BackupManifest;
  const holds = "idempotency keys and their kept answers; webhook endpoints, deliveries and the dispatcher's position";
  const files = [
    { name: 'read-models.sqlite', ...(await fileDigest(file)), holds },
    ...fields.files.filter((f) => f.name !== 'state.sqlite'),
  ];
  writeManifest(dir, sealManifest({ ...fields, files }, SERVICE_KEY));
}

/**
 * The manifest of the backup in `dir` made again for its files as they are now, under the service
 * key: what the backup of a data dir already so changed would hold, so the checks beyond the
 * hashes read the change.
 */
async function resealed(dir: string): Promise<void> {
  const { service_key_check: _check, mac: _mac, ...fields } = readManifest(dir) as BackupManifest;
  const files = await Promise.all(fields.files.map(async (f) => ({ ...f, ...(await fileDigest(join(dir, f.name))) })));
  writeManifest(dir, sealManifest({ ...fields, files }, SERVICE_KEY));
}

/** Changes one byte of `file` inside each occurrence of `text` (a page may keep a stale copy of a row beside the live one). */
function changeByteIn(file: string, text: string): void {
  const bytes = readFileSync(file);
  let found = 0;
  for (let at = bytes.indexOf(text, 0, 'latin1'); at >= 0; at = bytes.indexOf(text, at + 1, 'latin1')) {
    bytes[at + 1] ^= 0x01;
    found++;
  }
  expect(found).toBeGreaterThan(0);
  writeFileSync(file, bytes);
}

describe('backups of the embedded stores', () => {
  let root: string;
  let dataDir: string;
  let made: string;
  let backup: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'backup-spec-'));
    dataDir = join(root, 'data');
    await sealedDataDir(dataDir);
    made = join(root, 'made');
    await createBackup(FILES, dataDir, made, { serviceKey: SERVICE_KEY, signingKey: null });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // Each test changes a copy of the one backup (file modes kept).
  beforeEach(() => {
    backup = mkdtempSync(join(root, 'backup-'));
    cpSync(made, backup, { recursive: true });
  });

  it('makes a backup that verifies, readable by its user only, whose every sealed event opens', async () => {
    const verified = await verifyBackup(FILES, backup, SERVICE_KEY);
    expect(verified.problems).toEqual([]);
    expect(verified.manifest!.files.map((f) => f.name)).toEqual(['state.sqlite', 'schools.sqlite', 'events.sqlite', 'keys.sqlite']);
    expect(verified.log).toMatchObject({ events: verified.manifest!.log.events, streams: verified.manifest!.log.streams, faults: [] });
    expect(verified.sealed).toEqual({ opened: TRAINEES.length, erased: 0, problems: [] });
    expect(statSync(backup).mode & 0o777).toBe(0o700);
    for (const f of [...verified.manifest!.files.map((x) => x.name), 'manifest.json'])
      expect(statSync(join(backup, f)).mode & 0o777).toBe(0o600);
    // The read models are not copied: a restore projects them again.
    expect(readdirSync(backup).filter((f) => f.startsWith('read-models'))).toEqual([]);
  });

  it('keeps no kept answer and no webhook payload in any byte of the backup', () => {
    const text = readdirSync(backup)
      .map((f) => readFileSync(join(backup, f)).toString('latin1'))
      .join('\n');
    expect(text.includes('Keptanswername')).toBe(false);
    for (const n of [2, 3]) expect(text.includes(`77001${n}`)).toBe(false);
    // The data dir holds them: the scan reads what it should.
    const live = readdirSync(dataDir)
      .filter((f) => f.startsWith('state.sqlite'))
      .map((f) => readFileSync(join(dataDir, f)).toString('latin1'))
      .join('\n');
    expect(live.includes('Keptanswername') && live.includes('770012') && live.includes('770013')).toBe(true);
  });

  it('restores the kept state without answers or payloads: a retry runs again, a pending delivery is made again', async () => {
    const target = join(root, `restored-state-${Date.now()}`);
    expect((await restoreFiles(FILES, backup, target, { serviceKey: SERVICE_KEY, ledger: [] })).state).toBe('restored');
    expect(await keptState(target)).toEqual(KEPT);
  });

  it('restores an older backup, whose kept state is in its read-models.sqlite, into state.sqlite', async () => {
    await asOlderBackup(backup);
    expect((await verifyBackup(FILES, backup, SERVICE_KEY)).problems).toEqual([]);
    const target = join(root, `restored-older-${Date.now()}`);
    expect((await restoreFiles(FILES, backup, target, { serviceKey: SERVICE_KEY, ledger: [] })).state).toBe('in-read-models');
    // An older backup kept its answers: they are restored as they were.
    expect(await keptState(target)).toEqual({ replay: 'replay', outbox: 3, deliveries: [], registry: 2 });
    const left = new Database(join(target, 'read-models.sqlite'), { readonly: true });
    expect(left.prepare(`SELECT name FROM sqlite_schema WHERE name LIKE 'idempotency%' OR name LIKE 'webhook%'`).all()).toEqual([]);
    left.close();
  });

  it('restores a backup without any kept state, saying there was none', async () => {
    rmSync(join(backup, 'state.sqlite'));
    const { service_key_check: _check, mac: _mac, ...fields } = readManifest(backup) as BackupManifest;
    writeManifest(backup, sealManifest({ ...fields, files: fields.files.filter((f) => f.name !== 'state.sqlite') }, SERVICE_KEY));
    const target = join(root, `restored-none-${Date.now()}`);
    expect((await restoreFiles(FILES, backup, target, { serviceKey: SERVICE_KEY, ledger: [] })).state).toBe('none');
    expect(await keptState(target)).toMatchObject({ outbox: 0, deliveries: [], registry: 0 });
  });

  it('refuses a target that is not empty', async () => {
    await expect(createBackup(FILES, dataDir, backup, { serviceKey: SERVICE_KEY, signingKey: null })).rejects.toThrow(BackupRefused);
    await expect(
      createBackup(FILES, join(root, 'nothing'), join(root, 'nowhere'), { serviceKey: SERVICE_KEY, signingKey: null }),
    ).rejects.toThrow(/holds no event log/);
  });

  it('names a byte changed in the log copy, and never opens a copy whose hash fails', async () => {
    changeByteIn(join(backup, 'events.sqlite'), '"ukprn":"10000001"');
    const verified = await verifyBackup(FILES, backup, SERVICE_KEY);
    expect(verified.problems).toEqual(["events.sqlite: its SHA-256 is not the manifest's (a byte changed since the backup)"]);
    // Neither its chains nor its sealed events were read.
    expect(verified.log).toBeNull();
    expect(verified.sealed).toBeNull();
  });

  it('never opens a key store copy whose hash fails, and still checks the log', async () => {
    changeByteIn(join(backup, 'keys.sqlite'), 'data_keys');
    const verified = await verifyBackup(FILES, backup, SERVICE_KEY);
    expect(verified.problems).toEqual(["keys.sqlite: its SHA-256 is not the manifest's (a byte changed since the backup)"]);
    expect(verified.log?.faults).toEqual([]);
    expect(verified.sealed).toBeNull();
  });

  it('names an event whose box was given another field order, or moved to another trainee event, as not opening', async () => {
    const log = new Database(join(backup, 'events.sqlite'));
    for (const name of log.prepare(`SELECT name FROM sqlite_schema WHERE type = 'trigger'`).pluck().all())
      log.exec(`DROP TRIGGER "${String(name)}"`);
    const row = (id: string) =>
      log.prepare(`SELECT position, data FROM events WHERE stream_id = ? AND revision = 0`).get(traineeStreamId(id)) as {
        position: number;
        data: string;
      };
    const update = log.prepare('UPDATE events SET data = ? WHERE position = ?');
    const a = row('BkA');
    const reordered = JSON.parse(a.data) as { sealed: { fields: string[] } };
    reordered.sealed.fields.reverse();
    update.run(JSON.stringify(reordered), a.position);
    // BkB's box put in its next event (a placement's, which sealed nothing): the same stream, another event.
    const b = row('BkB');
    const next = log.prepare(`SELECT position, data FROM events WHERE stream_id = ? AND revision = 1`).get(traineeStreamId('BkB')) as {
      position: number;
      data: string;
    };
    const box = (JSON.parse(b.data) as { sealed: unknown }).sealed;
    update.run(JSON.stringify({ ...(JSON.parse(next.data) as Record<string, unknown>), sealed: box }), next.position);
    log.close();
    await resealed(backup);
    const { sealed } = await verifyBackup(FILES, backup, SERVICE_KEY);
    expect(sealed!.problems).toContain('events.sqlite: trainee-BkA revision 0: its sealed values do not open with its data key');
    expect(sealed!.problems).toContain('events.sqlite: trainee-BkB revision 1: its sealed values do not open with its data key');
    expect(sealed!.opened).toBe(TRAINEES.length - 1);
  });

  it('names the trainee whose key the key store copy lacks', async () => {
    const keys = new Database(join(backup, 'keys.sqlite'));
    keys.prepare(`DELETE FROM data_keys WHERE trainee_id = 'BkC'`).run();
    keys.close();
    await resealed(backup);
    const { problems } = await verifyBackup(FILES, backup, SERVICE_KEY);
    expect(problems).toEqual(['keys.sqlite has no data key for trainee-BkC: its sealed events cannot be opened']);
  });

  it('counts an erased trainee’s events as erased, not as a problem', async () => {
    const keys = new Database(join(backup, 'keys.sqlite'));
    keys.prepare(`UPDATE data_keys SET wrapped = NULL, erased_at = '2026-01-01T00:00:00.000Z' WHERE trainee_id = 'BkD'`).run();
    keys.close();
    await resealed(backup);
    const verified = await verifyBackup(FILES, backup, SERVICE_KEY);
    expect(verified.sealed).toEqual({ opened: TRAINEES.length - 1, erased: 1, problems: [] });
  });

  it('refuses a manifest edited, or made under another service key', async () => {
    const file = join(backup, 'manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...manifest, log: { ...manifest.log, position: manifest.log.position + 1 } }));
    expect((await verifyBackup(FILES, backup, SERVICE_KEY)).problems).toEqual([
      'manifest.json: the manifest was changed after the backup was made (its MAC does not hold)',
    ]);
    expect((await verifyBackup(FILES, backup, randomBytes(32))).problems[0]).toMatch(/made under another service key/);
  });

  it("holds a signed digest's signature to the trusted key where one is given", async () => {
    const signed = join(root, `signed-${Date.now()}`);
    const { privateKey } = generateKeyPairSync('ed25519');
    await createBackup(FILES, dataDir, signed, { serviceKey: SERVICE_KEY, signingKey: privateKey });
    const own = { fingerprint: keyFingerprint(createPublicKey(privateKey)), name: 'the test key' };
    expect((await verifyBackup(FILES, signed, SERVICE_KEY, undefined, own)).problems).toEqual([]);
    const other = { fingerprint: keyFingerprint(generateKeyPairSync('ed25519').publicKey), name: 'the auditor key' };
    expect((await verifyBackup(FILES, signed, SERVICE_KEY, undefined, other)).problems).toEqual([
      `manifest.json: its signed digest was signed by key ${own.fingerprint}, not the auditor key (${other.fingerprint})`,
    ]);
    expect((await verifyBackup(FILES, signed, SERVICE_KEY)).problems).toEqual([]);
  });

  it('restores into an empty data dir only, a backup that verifies only, destroying the ledger’s keys', async () => {
    mkdirSync(join(root, 'busy'));
    writeFileSync(join(root, 'busy', 'events.sqlite'), '');
    const busy = restoreFiles(FILES, backup, join(root, 'busy'), { serviceKey: SERVICE_KEY, ledger: [] });
    await expect(busy).rejects.toThrow(/is not empty/);
    const target = join(root, `restored-${Date.now()}`);
    const restored = await restoreFiles(FILES, backup, target, {
      serviceKey: SERVICE_KEY,
      ledger: [{ trainee_id: 'BkA', erased_at: '2026-11-27T10:00:00.000Z', reason: 'Request DPO-1' }],
    });
    expect(restored.keysDestroyed).toBe(1);
    const keys = new Database(join(target, 'keys.sqlite'), { readonly: true });
    expect(keys.prepare(`SELECT wrapped, erased_at FROM data_keys WHERE trainee_id = 'BkA'`).get()).toEqual({
      wrapped: null,
      erased_at: '2026-11-27T10:00:00.000Z',
    });
    keys.close();
    changeByteIn(join(backup, 'keys.sqlite'), 'data_keys');
    const tornDir = join(root, `torn-${Date.now()}`);
    const torn = restoreFiles(FILES, backup, tornDir, { serviceKey: SERVICE_KEY, ledger: [] });
    await expect(torn).rejects.toThrow(/nothing was restored \(the copies are removed\):\n {2}keys\.sqlite: its SHA-256/);
    expect(existsSync(tornDir)).toBe(false);
  });

  it('refuses a backup made under another service key before copying anything', async () => {
    const target = join(root, `other-key-${Date.now()}`);
    await expect(restoreFiles(FILES, backup, target, { serviceKey: randomBytes(32), ledger: [], keyFile: '/keys/other' })).rejects.toThrow(
      `the backup in ${backup} was made under another service key than /keys/other: set DATA_KEY_FILE to the key file of the service it was taken from`,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('checks what it copied: a log swapped in after the manifest was checked is refused, and the data dir left as found', async () => {
    // Another data dir's log, backed up under the same service key: a backup of its own that verifies.
    const other = join(root, `other-${Date.now()}`);
    await sealedDataDir(join(other, 'data'));
    await createBackup(FILES, join(other, 'data'), join(other, 'backup'), { serviceKey: SERVICE_KEY, signingKey: null });
    expect((await verifyBackup(FILES, join(other, 'backup'), SERVICE_KEY)).problems).toEqual([]);
    const target = join(root, `swapped-${Date.now()}`);
    mkdirSync(target, { mode: 0o700 });
    writeFileSync(join(target, 'data-key'), 'the sandbox key, left as it is\n', { mode: 0o600 });
    const swap = () => cpSync(join(other, 'backup', 'events.sqlite'), join(backup, 'events.sqlite'));
    const restoring = restoreFiles(FILES, backup, target, { serviceKey: SERVICE_KEY, ledger: [], beforeCopy: swap });
    await expect(restoring).rejects.toThrow(/does not verify as copied into .*\n {2}events\.sqlite: .*manifest/);
    expect(readdirSync(target)).toEqual(['data-key']);
  });
});
