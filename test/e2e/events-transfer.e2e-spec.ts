import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashToken } from '@app/providers/write';
import { openSqliteEventStore, SqliteReadModel } from '@app/stores/sqlite';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';
import { csvFile, traineeRows } from '../support/upload-files';

const VERSIONS: Version[] = ['v2025.0', 'v2026.1'];
const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003-06-01' };
const today = () => new Date().toISOString().slice(0, 10);

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, withinMs = 10_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    value = await read();
  }
  return value;
}

/** Every read model of a data dir: each trainee document, the providers, each provider's tokens, the checkpoint. */
async function readModels(dataDir: string, traineeIds: string[]) {
  const rm = SqliteReadModel.open(dataDir);
  try {
    const providers = await rm.listProviders();
    const tokens = Object.fromEntries(await Promise.all(providers.map(async (p) => [p.ukprn, await rm.listTokens(p.ukprn)] as const)));
    const trainees = Object.fromEntries(await Promise.all(traineeIds.map(async (id) => [id, await rm.getTrainee(id)] as const)));
    return { providers, tokens, trainees, checkpoint: await rm.checkpoint() };
  } finally {
    rm.close();
  }
}

describe('events export and import with the admin CLI (docs/operations.md "Export, import and moving to EventStoreDB")', () => {
  let source: string;
  let target: string;
  let work: string;
  const traineeIds: string[] = [];
  /** GET /trainees/{id} in each version, per provider token, as the source API answered. */
  const answers: { token: string; id: string; version: Version; body: unknown }[] = [];
  const lists: { token: string; version: Version; body: unknown }[] = [];
  let revokedToken: string;
  /** An upload checked in the source (one row refused), as the source answered it and its errors file. */
  const upload = { id: '', token: '', body: null as unknown, errors: '' };
  /** The admin CLI in a process loaded once; the first export and import, and a usage error, run the program itself. */
  let admin: AdminWorker;

  beforeAll(async () => {
    admin = AdminWorker.start();
    source = mkdtempSync(join(tmpdir(), 'transfer-source-'));
    target = mkdtempSync(join(tmpdir(), 'transfer-target-'));
    work = mkdtempSync(join(tmpdir(), 'transfer-files-'));
    const api = await RunningApi.start({ dataDir: source, registryTrnDelayMs: 0 });
    try {
      const tokenA = await api.providerToken('10000110', 'Provider A');
      const tokenB = await api.providerToken('10000111', 'Provider B');
      revokedToken = await api.providerToken('10000111');
      await api.infra.providers.revokeToken((await api.infra.readModel.findTokenByHash(hashToken(revokedToken)))!.token_id);
      await api.infra.catchUp();

      for (const [k, token] of [tokenA, tokenA, tokenA, tokenB, tokenB, tokenA].entries()) {
        const version = VERSIONS[k % 2];
        const base = `/api/${version}/trainees`;
        const created = await api.request('POST', base, token, uniqueTrainee(version));
        expect(created.status).toBe(201);
        const id: string = created.body.data.trainee_id;
        traineeIds.push(id);
        for (let i = 0; i < 5; i++) {
          const patched = await api.request('PATCH', `${base}/${id}`, token, {
            data: { middle_names: `M${k}x${i}`, ni_number: `QQ12345${i}C` },
          });
          expect(patched.status).toBe(200);
        }
        const placement = await api.request('POST', `${base}/${id}/placements`, token, {
          data: { urn: '100038', name: 'Ash School', postcode: 'LS1 1DX' },
        });
        expect(placement.status).toBe(201);
        expect(
          (
            await api.request('PATCH', `${base}/${id}/placements/${placement.body.data.placement_id}`, token, {
              data: { name: 'Ash Academy' },
            })
          ).status,
        ).toBe(200);
        const degree = await api.request('POST', `${base}/${id}/degrees`, token, { data: { ...DEGREE, grade: '03', subject: '100366' } });
        expect(degree.status).toBe(201);
        expect(
          (await api.request('PATCH', `${base}/${id}/degrees/${degree.body.data[0].degree_id}`, token, { data: { grade: '01' } })).status,
        ).toBe(200);
        if (k === 1)
          expect((await api.request('DELETE', `${base}/${id}/placements/${placement.body.data.placement_id}`, token)).status).toBe(200);
        // The sandbox registry issues the TRN at once.
        const withTrn = await eventually(
          () => api.request('GET', `${base}/${id}`, token),
          (r) => r.body.data.trn !== null,
        );
        expect(withTrn.body.data.state).toBe('trn_received');
        if (k === 2)
          expect(
            (await api.request('POST', `${base}/${id}/defer`, token, { data: { defer_date: '2026-01-05', defer_reason: 'Health' } }))
              .status,
          ).toBe(200);
        if (k === 3) {
          expect(
            (await api.request('POST', `${base}/${id}/recommend-for-qts`, token, { data: { qts_standards_met_date: today() } })).status,
          ).toBe(202);
          const awarded = await eventually(
            () => api.request('GET', `${base}/${id}`, token),
            (r) => r.body.data.state === 'awarded',
          );
          expect(awarded.body.data.state).toBe('awarded');
        }
      }
      // An upload's stream is sealed with a key of its own, which travels with it.
      const rows = traineeRows('v2026.1', 2);
      rows[1].first_names = '';
      const posted = await api.request('POST', '/api/v2026.1/trainee-uploads', tokenA, csvFile('v2026.1', rows), {
        'content-type': 'text/csv',
      });
      expect(posted.status).toBe(202);
      Object.assign(upload, { id: posted.body.data.upload_id, token: tokenA });
      const checked = await eventually(
        () => api.request('GET', `/api/v2026.1/trainee-uploads/${upload.id}`, tokenA),
        (r) => r.body.data.status !== 'pending',
      );
      expect(checked.body.data).toMatchObject({ status: 'failed', error_count: 1 });
      upload.body = checked.body;
      upload.errors = (await api.request('GET', `/api/v2026.1/trainee-uploads/${upload.id}/errors`, tokenA)).text;
      expect(upload.errors).toContain(rows[0].last_name);

      for (const [k, id] of traineeIds.entries()) {
        const token = k === 3 || k === 4 ? tokenB : tokenA;
        for (const version of VERSIONS)
          answers.push({ token, id, version, body: (await api.request('GET', `/api/${version}/trainees/${id}`, token)).body });
      }
      for (const token of [tokenA, tokenB]) {
        for (const version of VERSIONS)
          lists.push({
            token,
            version,
            body: (await api.request('GET', `/api/${version}/trainees?academic_cycle=2025&per_page=100`, token)).body,
          });
      }
    } finally {
      await api.close(); // keeps `source`, which the test created
    }
  }, 60_000);

  afterAll(async () => {
    await admin.close();
    for (const dir of [source, target, work]) rmSync(dir, { recursive: true, force: true });
  });

  it('exports the log, imports it into an empty data dir, and every read model comes out the same', async () => {
    const file = join(work, 'events.jsonl');
    const exported = await admin.run(['events', 'export', '--output', file], source);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    const lines = eventLines(text);
    const sourceStore = openSqliteEventStore(source);
    const head = await sourceStore.headPosition();
    await sourceStore.close();
    expect(lines).toHaveLength(head);
    // Each trainee's and upload's data key, wrapped, just before the first event of its stream (docs/DESIGN.md "Personal data").
    const all = text.trimEnd().split('\n');
    const keyLines = all.flatMap((l, i) => (l.startsWith('{"data_key"') ? [i] : []));
    const keyed: string[] = [];
    for (const i of keyLines) {
      const key = JSON.parse(all[i]).data_key;
      expect(key).toEqual({ stream_id: expect.stringMatching(/^(trainee|upload)-/), wrapped: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });
      const next = all.slice(i + 1).find((l) => !l.startsWith('{"attachment"'))!;
      expect(JSON.parse(next)).toMatchObject({ stream_id: key.stream_id, revision: 0 });
      keyed.push(key.stream_id);
    }
    expect(keyed.sort()).toEqual([...traineeIds.map((id) => `trainee-${id}`), `upload-${upload.id}`].sort());
    // The upload's file and row messages, kept outside the log, travel sealed after its key (docs/DESIGN.md "Uploads").
    const attachments = all.filter((l) => l.startsWith('{"attachment"')).map((l) => JSON.parse(l).attachment);
    expect(attachments.map((a) => [a.stream_id, a.name.replace(/-[0-9a-f]{64}$/, '-…')])).toEqual([
      [`upload-${upload.id}`, 'file'],
      [`upload-${upload.id}`, 'messages-…'],
    ]);
    const uploadKey = keyLines.find((i) => JSON.parse(all[i]).data_key.stream_id === `upload-${upload.id}`)!;
    expect(all.slice(uploadKey + 1, uploadKey + 3).every((l) => l.startsWith('{"attachment"'))).toBe(true);
    // The export holds the trainees' personal data sealed only.
    for (const a of answers) {
      const person = a.body as { data: Record<string, unknown> };
      for (const field of ['first_names', 'last_name', 'email', 'date_of_birth'])
        expect(text).not.toContain(JSON.stringify(person.data[field]));
    }
    expect(exported.stdout).toBe(`Exported ${head} events to ${file}\n`);
    const first = JSON.parse(lines[0]);
    expect(Object.keys(first)).toEqual(['position', 'stream_id', 'revision', 'id', 'type', 'data', 'metadata']);
    const types = new Set(lines.map((l) => JSON.parse(l).type));
    for (const t of [
      'ProviderRegistered',
      'TokenIssued',
      'TokenRevoked',
      'TraineeRegistered',
      'TraineeUpdated',
      'PlacementAdded',
      'PlacementUpdated',
      'PlacementRemoved',
      'DegreeAdded',
      'DegreeUpdated',
      'TrnIssued',
      'TraineeDeferred',
      'TraineeRecommendedForAward',
      'TraineeAwarded',
    ]) {
      expect(types).toContain(t);
    }
    // The duplicate rule's claims live in the key store's reservations, never in the log (docs/DESIGN.md property 3).
    expect(types.has('RegistrationClaimed')).toBe(false);

    // Without --output the events go to stdout, alone; the summary goes to stderr.
    const toStdout = await admin.run(['events', 'export'], source);
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout).toBe(readFileSync(file, 'utf8'));
    expect(toStdout.stderr).toBe(`Exported ${head} events\n`);

    // Moved with the source's service key, as docs/operations.md says: the wrapped data keys open with it.
    copyFileSync(join(source, 'data-key'), join(target, 'data-key'));
    const imported = await admin.run(['events', 'import', file], target);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`Imported ${head} events from ${file}`);

    const before = await readModels(source, traineeIds);
    const after = await readModels(target, traineeIds);
    expect(after.trainees).toEqual(before.trainees);
    expect(Object.values(after.trainees).every((t) => t !== null)).toBe(true);
    expect(after.providers).toEqual(before.providers);
    expect(after.providers.map((p) => p.ukprn).sort()).toEqual(['10000110', '10000111']);
    expect(after.tokens).toEqual(before.tokens);
    expect(after.tokens['10000111'].map((t) => t.status).sort()).toEqual(['active', 'revoked']);
    expect(after.checkpoint).toBe(head);

    // The moved log is the same log: exporting it again gives the same file, positions included.
    const again = await admin.run(['events', 'export'], target);
    expect(again.stdout).toBe(readFileSync(file, 'utf8'));
  });

  it('serves every trainee the same from the imported data dir, to the same tokens', async () => {
    const api = await RunningApi.start({ dataDir: target });
    try {
      for (const a of answers) {
        const res = await api.request('GET', `/api/${a.version}/trainees/${a.id}`, a.token);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(a.body);
      }
      for (const l of lists)
        expect((await api.request('GET', `/api/${l.version}/trainees?academic_cycle=2025&per_page=100`, l.token)).body).toEqual(l.body);
      expect((await api.request('GET', '/api/v2025.0/info', revokedToken)).status).toBe(401);
      // The history replays the imported streams.
      const history = await api.request('GET', `/api/v2026.1/trainees/${answers[0].id}/history`, answers[0].token);
      expect(history.status).toBe(200);
      expect(history.body.data.filter((e: { event_type: string }) => e.event_type === 'TraineeUpdated')).toHaveLength(5);
      // The upload reads as before, its file opened with the key that travelled with its stream.
      expect((await api.request('GET', `/api/v2026.1/trainee-uploads/${upload.id}`, upload.token)).body).toEqual(upload.body);
      expect((await api.request('GET', `/api/v2026.1/trainee-uploads/${upload.id}/errors`, upload.token)).text).toBe(upload.errors);
    } finally {
      await api.close();
    }
  });

  it('refuses to import into a data dir that holds events (exit 1), and an --since export into an empty one', async () => {
    const file = join(work, 'events.jsonl');
    const into = await admin.run(['events', 'import', file], source);
    expect(into.code).toBe(1);
    expect(into.stderr).toMatch(/^Error: The target event store is not empty/);
    expect(into.stdout).toBe('');

    const tail = join(work, 'tail.jsonl');
    // After the first position whose next event is not its stream's first, and is the last of its stream
    // before another stream's later event: the tail's first line follows nothing, and is appended on its own.
    const all = eventLines(readFileSync(file, 'utf8'));
    const at = (i: number) => JSON.parse(all[i]) as { stream_id: string; revision: number };
    const cut = all.findIndex(
      (_, i) => i >= 10 && i + 1 < all.length && at(i).revision > 0 && at(i + 1).revision > 0 && at(i + 1).stream_id !== at(i).stream_id,
    );
    expect(cut).toBeGreaterThan(0);
    const after = JSON.parse(all[cut - 1]).position;
    const since = await admin.run(['events', 'export', '--since', String(after), '--output', tail], source);
    expect(since.code).toBe(0);
    expect(eventLines(readFileSync(tail, 'utf8'))).toEqual(all.slice(cut));
    expect(since.stdout).toBe(`Exported ${all.length - cut} events after position ${after} to ${tail}\n`);
    const empty = mkdtempSync(join(tmpdir(), 'transfer-empty-'));
    try {
      const partial = await admin.run(['events', 'import', tail], empty);
      expect(partial.code).toBe(1);
      expect(partial.stderr).toMatch(/line 1: .* does not follow .*--since/);
      // Another service key (this data dir's own): the first trainee's data key is refused.
      rmSync(join(empty, 'events.sqlite'), { force: true });
      const otherKey = await admin.run(['events', 'import', file], mkdtempSync(join(empty, 'other-')));
      expect(otherKey.code).toBe(1);
      expect(otherKey.stderr).toMatch(/line \d+: the data key of trainee-\w+ was wrapped under another service key/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }

    const missing = await admin.run(['events', 'import', join(work, 'nope.jsonl')], target);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No such file');
    const badSince = await admin.run(['events', 'export', '--since', 'abc'], source);
    expect(badSince.code).toBe(2);
  });

  it('moves webhook secrets sealed: never in the export, read back with the same service key, refused with another', async () => {
    const from = mkdtempSync(join(tmpdir(), 'transfer-hooks-'));
    const same = mkdtempSync(join(tmpdir(), 'transfer-hooks-same-'));
    const another = mkdtempSync(join(tmpdir(), 'transfer-hooks-other-'));
    try {
      expect((await admin.run(['provider', 'add', '--ukprn', '10000120', '--name', 'Hook SCITT'], from)).code).toBe(0);
      const added = await admin.run(['webhook', 'add', '--ukprn', '10000120', '--url', 'http://127.0.0.1:9/hooks'], from);
      expect(added.code).toBe(0);
      const secret = added.stdout.trim().split('\n').at(-1)!;
      expect(secret).toMatch(/^whsec_/);
      const file = join(from, 'events.jsonl');
      expect((await admin.run(['events', 'export', '--output', file], from)).code).toBe(0);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('"secret":"sealed2.1.');
      expect(text).not.toContain(secret.slice('whsec_'.length, 'whsec_'.length + 20));

      // The source's sandbox key, given as DATA_KEY_FILE: the endpoint comes back.
      const withKey = { DATA_KEY_FILE: join(from, 'data-key') };
      const moved = await admin.run(['events', 'import', file], same, withKey);
      expect(moved).toMatchObject({ code: 0, stderr: '' });
      const listed = await admin.run(['webhook', 'list', '--ukprn', '10000120'], same, withKey);
      expect(listed.stdout).toContain('http://127.0.0.1:9/hooks');

      // A data dir with a key of its own: refused, saying why.
      const refused = await admin.run(['events', 'import', file], another);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/sealed with another service key: import with the DATA_KEY_FILE of the deployment it came from/);
    } finally {
      for (const dir of [from, same, another]) rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The event lines of an export (its data key lines left out). */
function eventLines(text: string): string[] {
  return text
    .trimEnd()
    .split('\n')
    .filter((l) => !l.startsWith('{"data_key"') && !l.startsWith('{"attachment"'));
}
