// Slow by design: the API writes a 300-row upload, is killed with SIGKILL midway, and finishes it after its restart.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiProcess } from '../support/durability';
import { ensureBuilt } from '../support/processes';
import { csvFile, traineeRows } from '../support/upload-files';

const V = 'v2026.1';
/** Rows in the file: enough that the kill, after the first 50, falls well inside the writing. */
const ROWS = 300;

/**
 * The API process is killed with SIGKILL while it writes a submitted file of 300 trainees; started
 * again on the same data dir it resumes the upload where it stopped, and each row becomes a trainee
 * exactly once (docs/DESIGN.md "Uploads"; property 4).
 */
describe('an upload submitted across a kill -9 of the API process', () => {
  let dir: string;
  let api: Awaited<ReturnType<typeof startApiProcess>> | null = null;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'upload-kill-'));
  }, 180_000);
  afterAll(async () => {
    await api?.proc.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function send(method: string, path: string, token: string, body?: string): Promise<{ status: number; body: any }> {
    const res = await fetch(`${api!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'text/csv' }) },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  /**
   * Polls the upload until `done` holds for it, for at most 240 s: every 25 ms at first, then less
   * often, up to every 250 ms (each answer lists the rows done so far, up to 300 of them, and
   * the API that writes them answers it).
   */
  async function until(id: string, token: string, done: (upload: any) => boolean): Promise<any> {
    for (let pause = 25, deadline = Date.now() + 240_000; Date.now() < deadline; pause = Math.min(pause * 1.5, 250)) {
      const res = await send('GET', `/api/${V}/trainee-uploads/${id}`, token);
      expect(res.status).toBe(200);
      if (done(res.body.data)) return res.body.data;
      await new Promise((r) => setTimeout(r, pause));
    }
    throw new Error(`upload ${id} never reached the state awaited`);
  }

  it('finishes after the restart with 300 trainees, none twice', async () => {
    api = await startApiProcess(dir);
    const token = api.token!;
    const posted = await send('POST', `/api/${V}/trainee-uploads`, token, csvFile(V, traineeRows(V, ROWS)));
    expect(posted.status).toBe(202);
    const id = posted.body.data.upload_id as string;
    await until(id, token, (u) => u.status === 'validated');
    expect((await send('POST', `/api/${V}/trainee-uploads/${id}/submit`, token)).status).toBe(202);
    const partial = await until(id, token, (u) => u.rows.length >= 50);
    expect(partial.status).toBe('in_progress');
    expect(await api.proc.stop('SIGKILL')).toBeNull();

    api = await startApiProcess(dir);
    const done = await until(id, token, (u) => u.status === 'succeeded');
    expect(done.rows).toHaveLength(ROWS);
    const ids = done.rows.map((r: { trainee_id?: string }) => r.trainee_id);
    expect(ids.every((t: string | undefined) => typeof t === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ROWS);

    const db = new Database(join(dir, 'events.sqlite'), { readonly: true });
    try {
      const registered = db
        .prepare(`SELECT stream_id FROM events WHERE type = 'TraineeRegistered' AND stream_id IN (SELECT value FROM json_each(?))`)
        .pluck()
        .all(JSON.stringify(ids.map((t: string) => `trainee-${t}`))) as string[];
      expect(registered).toHaveLength(ROWS);
      expect(new Set(registered).size).toBe(ROWS);
    } finally {
      db.close();
    }
    for (const t of [ids[0], ids[ROWS >> 1], ids[ROWS - 1]]) expect((await send('GET', `/api/${V}/trainees/${t}`, token)).status).toBe(200);
  }, 300_000);
});
