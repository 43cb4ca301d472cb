/**
 * The audit's check of the history (docs/operations.md "Verifying the history"; docs/DESIGN.md
 * "Verifiable history"): `admin audit verify` passes a log written through the API, erasures
 * included (the chain hashes the sealed texts), and names by stream and revision each event
 * changed, deleted or swapped in the SQLite file directly, as someone with write access to it could.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runAdmin } from '../support/admin-cli';
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
  const copies: string[] = [];

  beforeAll(async () => {
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
    const erased = await runAdmin(['trainee', 'erase', traineeStream.slice('trainee-'.length), '--reason', 'audit test'], written);
    expect(erased.code).toBe(0);
  });
  afterAll(() => {
    for (const dir of [written, ...copies]) rmSync(dir, { recursive: true, force: true });
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

  async function verify(dataDir: string): Promise<{ code: number; report: Report }> {
    const run = await runAdmin(['audit', 'verify', '--json'], dataDir);
    return { code: run.code, report: JSON.parse(run.stdout) as Report };
  }

  const faults = (report: Report) => report.faults.map((f) => [f.stream_id, f.revision, f.kind]);

  it('passes the log as written, with an erased trainee in it, and says so', async () => {
    const run = await runAdmin(['audit', 'verify'], written);
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
    const dir = tampered((db) =>
      db
        .prepare(
          'UPDATE events SET metadata = replace(metadata, \'"occurredAt":"2\', \'"occurredAt":"1\') WHERE stream_id = ? AND revision = 0',
        )
        .run(traineeStream),
    );
    const { code, report } = await verify(dir);
    expect(code).toBe(1);
    expect(faults(report)).toEqual([[traineeStream, 0, 'altered']]);
  });
});
