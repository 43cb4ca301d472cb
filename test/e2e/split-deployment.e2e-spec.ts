import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningApi } from '../support/api-harness';
import { TsProcess } from '../support/processes';
import { uniqueTrainee } from '../support/trainee-input';

/**
 * The API with `PROJECTOR=external` and apps/projector in its own process, on one data dir:
 * read-your-writes (docs/DESIGN.md property 1) holds across the two processes.
 */
describe('split deployment: API without projector + projector process', () => {
  let dir: string;
  let projector: TsProcess;
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'split-'));
    projector = TsProcess.start('dist/apps/projector/src/main.js', { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info' });
    await projector.waitForLine(/health endpoints listening/);
    api = await RunningApi.start({ dataDir: dir, projector: 'external' });
    token = await api.providerToken('10000050');
  });
  afterAll(async () => {
    await api.close();
    expect(await projector.stop('SIGTERM')).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a GET right after each write with that write', async () => {
    for (let i = 0; i < 10; i++) {
      const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'));
      expect(created.status).toBe(201);
      const id = created.body.data.trainee_id;
      const read = await api.request('GET', `/api/v2025.0/trainees/${id}`, token);
      expect(read.status).toBe(200);
      const patched = await api.request('PATCH', `/api/v2025.0/trainees/${id}`, token, { data: { middle_names: `M${i}` } });
      expect(patched.status).toBe(200);
      const again = await api.request('GET', `/api/v2025.0/trainees/${id}`, token);
      expect(again.body.data.middle_names).toBe(`M${i}`);
    }
    expect(api.infra.projector).toBeNull();
  });
});
