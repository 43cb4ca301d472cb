/**
 * The audit's check of the history (docs/operations.md "Verifying the history"; docs/DESIGN.md
 * "Verifiable history"): `admin audit verify` passes a log written through the API, erasures
 * included (the chain hashes the sealed texts), and names by stream and revision each event
 * changed, deleted or swapped in the SQLite file directly, as someone with write access to it could;
 * held to a signed digest (`admin audit digest`), also events taken from a stream's end or put in
 * with every later hash computed afresh, which the chain alone cannot show, and only to a digest
 * the trusted key signed.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { keyFingerprint, signDigest, type SignedDigest } from '@app/audit';
import { chainEvent, readChainKeys, withoutChainKeys } from '@app/event-sourcing';
import { eventIdText } from '@app/stores/sqlite/event-log/packed-ids';
import { changeStoredMetadata, storedMetadata } from '@app/stores/sqlite/event-log/testing/stored-metadata';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

interface Report {
  events: number;
  streams: number;
  faults: { stream_id: string; revision: number; kind: string }[];
}

describe('admin audit verify', () => {
  let written: string;
  let traineeStream: string;
  let digestFile: string;
  let signed: { code: number; stdout: string; stderr: string };
  const copies: string[] = [];
  /** The admin CLI in a process loaded once; the digest and the first verify run as the program itself. */
  let admin: AdminWorker;

  beforeAll(async () => {
    admin = AdminWorker.start();
    written = mkdtempSync(join(tmpdir(), 'trainee-records-audit-'));
    const api = await RunningApi.start({ dataDir: written });
    try {
      const token = await api.providerToken('10000140');
      const base = '/api/v2026.1/trainees';
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await api.request('POST', base, token, uniqueTrainee('v2026.1'));
        expect(created.status).toBe(201);
        ids.push((created.body as { data: { trainee_id: string } }).data.trainee_id);
      }
      for (const name of ['Ada', 'Grace', 'Edith', 'Mary']) {
        expect((await api.request('PATCH', `${base}/${ids[0]}`, token, { data: { first_names: name } })).status).toBe(200);
      }
      traineeStream = `trainee-${ids[0]}`;
    } finally {
      await api.close();
    }
    const erased = await admin.run(['trainee', 'erase', traineeStream.slice('trainee-'.length), '--reason', 'audit test'], written);
    expect(erased.code).toBe(0);
    digestFile = join(written, '..', `${written.split('/').pop()}-digest.json`);
    signed = await admin.run(['audit', 'digest', '--output', digestFile, '--by', 'auditor'], written);
  }, 120_000);
  afterAll(async () => {
    await admin.close();
    for (const dir of [written, digestFile, ...copies]) rmSync(dir, { recursive: true, force: true });
  });

  /** A copy of the written data dir with `change` made to its event log directly (the append-only triggers dropped first). */
  function tampered(change: (db: Database.Database) => void): string {
    const dir = mkdtempSync(join(tmpdir(), 'trainee-records-audit-copy-'));
    copies.push(dir);
    cpSync(written, dir, { recursive: true });
    const db = new Database(join(dir, 'events.sqlite'));
    db.exec('DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete;');
    change(db);
    db.close();
    return dir;
  }

  async function verify(dataDir: string, ...args: string[]): Promise<{ code: number; report: Report }> {
    const run = await admin.run(['audit', 'verify', '--json', ...args], dataDir);
    return { code: run.code, report: JSON.parse(run.stdout) as Report };
  }

  const faults = (report: Report) => report.faults.map((f) => [f.stream_id, f.revision, f.kind]);

  it('passes the log as written, with an erased trainee in it, and says so', async () => {
    const run = await admin.run(['audit', 'verify'], written);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^checked \d+ events in \d+ streams in [\d.]+ s \(\d+ events\/s\): every chain holds\n$/);
    const { report } = await verify(written);
    expect(report.faults).toEqual([]);
    expect(report.events).toBeGreaterThanOrEqual(9);
  });

  it('names an event one byte of whose data changed', async () => {
    const dir = tampered((db) => {
      const { data } = db.prepare('SELECT data FROM events WHERE stream_id = ? AND revision = 2').get(traineeStream) as { data: string };
      const at = data.indexOf('"trainee_id":"') + '"trainee_id":"'.length;
      const changed = `${data.slice(0, at)}${data[at] === 'a' ? 'b' : 'a'}${data.slice(at + 1)}`;
      db.prepare('UPDATE events SET data = ? WHERE stream_id = ? AND revision = 2').run(changed, traineeStream);
    });
    const { code, report } = await verify(dir);
    expect(code).toBe(1);
    expect(faults(report)).toEqual([[traineeStream, 2, 'altered']]);
  });

  it('names a deleted event as missing', async () => {
    const dir = tampered((db) => db.prepare('DELETE FROM events WHERE stream_id = ? AND revision = 1').run(traineeStream));
    const { code, report } = await verify(dir);
    expect(code).toBe(1);
    expect(faults(report)).toEqual([[traineeStream, 1, 'missing']]);
  });

  it('names two swapped revisions as reordered', async () => {
    const dir = tampered((db) => {
      const swap = db.prepare('UPDATE events SET revision = ? WHERE stream_id = ? AND revision = ?');
      swap.run(1_000_000, traineeStream, 2);
      swap.run(2, traineeStream, 3);
      swap.run(3, traineeStream, 1_000_000);
    });
    const { code, report } = await verify(dir);
    expect(code).toBe(1);
    expect(faults(report)).toEqual([
      [traineeStream, 2, 'reordered'],
      [traineeStream, 3, 'reordered'],
    ]);
  });

  it('names an event whose metadata (who, when) was changed', async () => {
    const dir = tampered((db) => changeStoredMetadata(db, traineeStream, 0, (text) => text.replace('"occurredAt":"2', '"occurredAt":"1')));
    const { code, report } = await verify(dir);
    expect(code).toBe(1);
    expect(faults(report)).toEqual([[traineeStream, 0, 'altered']]);
  });

  describe('with a signed digest (audit digest)', () => {
    it('signs the log as of its head, records the digest in the log, and writes it with its heads', async () => {
      expect(signed.code).toBe(0);
      const digest = JSON.parse(signed.stdout) as { position: number; streams: number; root: string; signature: string };
      expect(digest).toMatchObject({ format: 'trainee-records-audit-digest/1', root: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(signed.stderr).toMatch(/made an audit signing key for the sandbox/);
      const file = JSON.parse(readFileSync(digestFile, 'utf8')) as { digest: unknown; heads: [string, number, string][] };
      expect(file.digest).toEqual(digest);
      expect(file.heads.map(([stream]) => stream)).toContain(traineeStream);
      expect(file.heads).toHaveLength(digest.streams);
      const recorded = new Database(join(written, 'events.sqlite'), { readonly: true })
        .prepare("SELECT position, type FROM events WHERE stream_id = 'audit-digests'")
        .all() as { position: number; type: string }[];
      expect(recorded).toEqual([{ position: digest.position + 1, type: 'AuditDigestSigned' }]);
    });

    it('holds the untouched log to it', async () => {
      const run = await admin.run(['audit', 'verify', '--digest', digestFile], written);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/held to the digest of position \d+ .*: every chain holds/);
      expect(run.stderr).toMatch(/signed by the key with fingerprint [0-9a-f]{64} \(this deployment’s signing key\)/);
    });

    it('names events taken from the end of a stream, which the chain alone cannot show', async () => {
      const dir = tampered((db) =>
        db
          .prepare('DELETE FROM events WHERE stream_id = ? AND revision = (SELECT MAX(revision) FROM events WHERE stream_id = ?)')
          .run(traineeStream, traineeStream),
      );
      expect((await verify(dir)).code).toBe(0);
      const { code, report } = await verify(dir, '--digest', digestFile);
      expect(code).toBe(1);
      expect(faults(report)).toEqual([[traineeStream, lastRevision(written), 'missing']]);
    });

    it('names a forged event put in with every later hash computed afresh', async () => {
      const dir = tampered((db) => forgeAt(db, 2));
      expect((await verify(dir)).code).toBe(0);
      const { code, report } = await verify(dir, '--digest', digestFile);
      expect(code).toBe(1);
      expect(faults(report)).toEqual([[traineeStream, 2, 'inserted']]);
    });

    it('refuses a digest file whose digest or heads were changed', async () => {
      const file = JSON.parse(readFileSync(digestFile, 'utf8')) as { digest: { position: number }; heads: [string, number, string][] };
      const changedDigest = `${digestFile}.position.json`;
      writeFileSync(changedDigest, JSON.stringify({ ...file, digest: { ...file.digest, position: file.digest.position + 1 } }));
      const changedHeads = `${digestFile}.heads.json`;
      writeFileSync(changedHeads, JSON.stringify({ ...file, heads: file.heads.slice(1) }));
      copies.push(changedDigest, changedHeads);
      const bySignature = await admin.run(['audit', 'verify', '--digest', changedDigest], written);
      expect(bySignature.code).toBe(1);
      expect(bySignature.stderr).toMatch(/signature does not hold/);
      const byHeads = await admin.run(['audit', 'verify', '--digest', changedHeads], written);
      expect(byHeads.code).toBe(1);
      expect(byHeads.stderr).toMatch(/do not make the digest's signed root/);
    });

    it('refuses a digest another key signed, however well it holds, unless that key is the one given with --fingerprint', async () => {
      const file = JSON.parse(readFileSync(digestFile, 'utf8')) as { digest: SignedDigest; heads: [string, number, string][] };
      const other = generateKeyPairSync('ed25519').privateKey;
      const resigned = `${digestFile}.other-key.json`;
      writeFileSync(resigned, JSON.stringify({ ...file, digest: signDigest(file.digest, other) }));
      copies.push(resigned);
      const refused = await admin.run(['audit', 'verify', '--digest', resigned], written);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`signed by the key with fingerprint ${keyFingerprint(other)}, NOT this deployment’s signing key`);
      expect(refused.stdout).toBe('');
      const given = await admin.run(['audit', 'verify', '--digest', resigned, '--fingerprint', keyFingerprint(other)], written);
      expect(given.stderr).toContain('(the key given with --fingerprint)');
      expect(given.code).toBe(0);
    });
  });

  /** The last revision of the trainee stream in `dataDir`'s log. */
  function lastRevision(dataDir: string): number {
    const db = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
    const { r } = db.prepare('SELECT MAX(revision) AS r FROM events WHERE stream_id = ?').get(traineeStream) as { r: number };
    db.close();
    return r;
  }

  /**
   * Puts a forged event in at `revision` of the trainee stream as someone who knows the chain's
   * rule would: the later events renumbered, every hash from there computed afresh, so the
   * chain alone holds. The forged row gets the next position, as any row put in does.
   */
  function forgeAt(db: Database.Database, revision: number): void {
    const rows = db
      .prepare('SELECT position, id, revision, type, data FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision DESC')
      .all(traineeStream, revision) as { position: number; id: string | Buffer; revision: number; type: string; data: string }[];
    const metadataOf = new Map(rows.map((row) => [row.position, storedMetadata(db, traineeStream, row.revision)!]));
    for (const row of rows) db.prepare('UPDATE events SET revision = ? WHERE position = ?').run(row.revision + 1, row.position);
    let previous = readChainKeys(storedMetadata(db, traineeStream, revision - 1)!).hash;
    const forgedData = '{"trainee_id":"forged","changes":{"itt_end_date":"2030-07-31"}}';
    const forgedId = randomUUID();
    const forgedText = {
      streamId: traineeStream,
      revision,
      id: forgedId,
      type: 'TraineeUpdated',
      data: forgedData,
      metadata: '{"schemaVersion":1}',
    };
    const forged = chainEvent(previous, forgedText);
    db.prepare(
      "INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, 'TraineeUpdated', ?, ?, 'now')",
    ).run(forgedId, traineeStream, revision, forgedData, forged.metadata);
    previous = forged.hash;
    for (const row of [...rows].reverse()) {
      const metadata = withoutChainKeys(JSON.parse(metadataOf.get(row.position)!) as Record<string, unknown>);
      const again = chainEvent(previous, {
        id: eventIdText(row.id),
        type: row.type,
        data: row.data,
        streamId: traineeStream,
        revision: row.revision + 1,
        metadata: JSON.stringify(metadata),
      });
      db.prepare('UPDATE events SET metadata = ? WHERE position = ?').run(again.metadata, row.position);
      previous = again.hash;
    }
  }
});
