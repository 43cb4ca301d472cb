/**
 * The retention policy (docs/operations.md "Retention"): `admin retention apply --ended-before
 * <date>` erases every trainee whose course ended before the date (awarded, withdrawn, or its ITT
 * end date passed), lists them without erasing under `--dry-run`, and leaves the others as they were.
 * Each erasure goes in the erasure ledger (docs/operations.md "Backups and restore"): without one,
 * production refuses to erase and the sandbox warns.
 */
import { newEventId, toEventData } from '@app/event-sourcing';
import { traineeStreamId, type TraineeEvent } from '@app/trainees/decider';
import { exampleRegistration, traineeAwarded, traineeWithdrawn } from '@app/trainees/decider/testing/trainee-events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';

const UKPRN = '10000133';

/**
 * The admin CLI loaded once in a process of its own, for commands run again here; the first run of
 * each command, and the runs about the program itself, start it as operators do.
 */
const admin = AdminWorker.forFile();

describe('retention apply (admin CLI)', () => {
  let api: RunningApi;
  let token: string;
  const base = '/api/v2025.0/trainees';

  /** Appends a trainee's history through the API's event store (sealed as the API seals). */
  async function history(id: string, end: string, more: TraineeEvent[] = []): Promise<void> {
    const events = [
      ...exampleRegistration({ trainee_id: id, ukprn: UKPRN, details: { itt_start_date: '2016-09-01', itt_end_date: end } }),
      ...more,
    ];
    await api.infra.eventStore.appendToStream(
      traineeStreamId(id),
      toEventData(events, { occurredAt: '2017-01-01T00:00:00.000Z' }, newEventId),
    );
  }

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(UKPRN);
    await history('RetEnded2018', '2018-07-31');
    await history('RetAwarded2018', '2030-07-31', [
      traineeAwarded({ trainee_id: 'RetAwarded2018', awarded_at: '2018-06-01T10:00:00.000Z' }),
    ]);
    await history('RetWithdrawn2017', '2030-07-31', [
      traineeWithdrawn({ trainee_id: 'RetWithdrawn2017', withdrawal: { date: '2017-03-01' } }),
    ]);
    await history('RetEnds2020', '2020-07-31');
    await history('RetAwarded2021', '2018-07-31', [
      traineeAwarded({ trainee_id: 'RetAwarded2021', awarded_at: '2021-06-01T10:00:00.000Z' }),
    ]);
    await api.infra.catchUp();
  });
  afterAll(() => api.close());

  const status = async (id: string) => (await api.request('GET', `${base}/${id}`, token)).status;
  const due = ['RetAwarded2018', 'RetEnded2018', 'RetWithdrawn2017'];
  const kept = ['RetAwarded2021', 'RetEnds2020'];

  it('lists under --dry-run and erases nothing', async () => {
    const dry = await admin.run(['retention', 'apply', '--ended-before', '2019-08-01', '--dry-run'], api.dataDir);
    expect(dry.code).toBe(0);
    const lines = dry.stdout.trimEnd().split('\n');
    expect(lines.slice(0, -1).map((l) => l.split(/\s+/)[0])).toEqual(due);
    expect(lines[lines.length - 1]).toBe('3 trainees ended before 2019-08-01; nothing erased (--dry-run)');
    for (const id of [...due, ...kept]) expect(await status(id)).toBe(200);
  });

  it('refuses to erase in production without an erasure ledger, and erases nothing', async () => {
    const production = { APP_ENV: 'production', DATA_KEY_FILE: join(api.dataDir, 'data-key') };
    const applied = await admin.run(['retention', 'apply', '--ended-before', '2019-08-01'], api.dataDir, production);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe(
      'Error: retention apply records every erasure in the erasure ledger in production: set BACKUP_DIR (where the backups and ' +
        'erasure-ledger.jsonl are kept) or give --ledger <file>, so a restore of an earlier backup erases the trainee again; nothing was erased\n',
    );
    const erased = await admin.run(['trainee', 'erase', 'RetEnded2018', '--reason', 'Request 1'], api.dataDir, production);
    expect(erased.code).toBe(1);
    expect(erased.stderr).toMatch(/^Error: trainee erase records every erasure in the erasure ledger in production/);
    for (const id of [...due, ...kept]) expect(await status(id)).toBe(200);
  });

  it('erases the trainees whose course ended before the date, with a report, and keeps the others', async () => {
    const work = mkdtempSync(join(tmpdir(), 'retention-ledger-'));
    const ledger = join(work, 'erasure-ledger.jsonl');
    const applied = await admin.run(
      ['retention', 'apply', '--ended-before', '2019-08-01', '--by', 'retention-job', '--ledger', ledger],
      api.dataDir,
    );
    expect(applied.code).toBe(0);
    expect(applied.stderr).not.toMatch(/Warning/);
    expect(applied.stdout).toBe('Erased 3 of 3 trainees whose course ended before 2019-08-01\n');
    const lines = readFileSync(ledger, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, string>);
    rmSync(work, { recursive: true, force: true });
    expect(lines.map((l) => l.trainee_id).sort()).toEqual([...due].sort());
    for (const l of lines) expect(l.mac).toMatch(/^[0-9a-f]{64}$/);
    await api.infra.catchUp();
    for (const id of due) expect(await status(id)).toBe(404);
    for (const id of kept) expect(await status(id)).toBe(200);
    const history = await admin.run(['trainee', 'history', 'RetEnded2018', '--json'], api.dataDir);
    const last = JSON.parse(history.stdout.trimEnd().split('\n').pop()!);
    expect(last).toMatchObject({
      event_type: 'TraineeErased',
      changes: { reason: 'Retention policy: course ended 2018-07-31, before 2019-08-01', erased_by: 'retention-job' },
    });
    const again = await admin.run(['retention', 'apply', '--ended-before', '2019-08-01'], api.dataDir);
    expect(again.stdout).toBe('Erased 0 of 0 trainees whose course ended before 2019-08-01\n');
    expect(again.stderr).toMatch(
      /^Warning: no erasure ledger \(BACKUP_DIR is not set and no --ledger given\): what retention apply erases/,
    );
  }, 60_000);

  it('refuses a date that is not a date, or is after today', async () => {
    for (const date of ['2019-02-30', 'yesterday', '2999-01-01']) {
      const refused = await admin.run(['retention', 'apply', '--ended-before', date], api.dataDir);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--ended-before <date>.*(not a date|after today)/);
    }
  });
});
