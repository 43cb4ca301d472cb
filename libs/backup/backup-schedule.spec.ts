import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, toEventData } from '@app/event-sourcing';
import { deriveKey } from '@app/runtime/process';
import { openStores } from '@app/composition';
import { SQLITE_BACKUP_FILES as FILES } from '@app/stores/sqlite';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration } from '@app/trainees/decider/testing/trainee-events';
import { Metrics } from '@app/runtime/telemetry';
import { parseExposition } from '../../test/support/metrics-scrape';
import { BackupSchedule, observeBackups, verifyBackup } from '.';

const SERVICE_KEY = randomBytes(32);
const HOUR = 3_600_000;

describe('scheduled backups', () => {
  let root: string;
  let dataDir: string;
  let dir: string;
  let clock: number;
  const logs: { message: string; context: Record<string, unknown> }[] = [];
  const logger = {
    info: (context: object, message: string) => logs.push({ message, context: context as Record<string, unknown> }),
    error: (context: object, message: string) => logs.push({ message, context: context as Record<string, unknown> }),
  };
  const schedule = (data = dataDir) =>
    new BackupSchedule(
      {
        files: FILES,
        dataDir: data,
        dir,
        everyMs: 6 * HOUR,
        keep: 2,
        serviceKey: SERVICE_KEY,
        signingKey: null,
        now: () => new Date(clock),
      },
      logger,
    );

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'backup-schedule-'));
    dataDir = join(root, 'data');
    dir = join(root, 'backups');
    const stores = await openStores(
      { dataDir, eventStoreUrl: null, mongodbUrl: null },
      { personalData: { kek: deriveKey(SERVICE_KEY, 'key-encryption') } },
    );
    await stores.eventStore.appendToStream(
      traineeStreamId('Sched1'),
      toEventData(exampleRegistration({ trainee_id: 'Sched1' }), { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId),
    );
    await stores.close();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('takes a backup each run under its time, keeps the newest BACKUP_KEEP, and reads the newest back at start', async () => {
    clock = Date.parse('2026-11-28T00:00:00.000Z');
    const first = schedule();
    expect(first.lastSuccessAt).toBeNull();
    for (let run = 0; run < 3; run++) {
      await first.runNow();
      clock += 6 * HOUR;
      // The first run made the erasure ledger, empty; an erasure recorded since is kept by the next runs.
      if (run === 0) {
        expect(readFileSync(join(dir, 'erasure-ledger.jsonl'), 'utf8')).toBe('');
        appendFileSync(join(dir, 'erasure-ledger.jsonl'), 'an erasure\n');
      }
    }
    expect(first.counts).toEqual({ taken: 3, failed: 0 });
    expect(readdirSync(dir).sort()).toEqual(['2026-11-28T06-00-00-000Z', '2026-11-28T12-00-00-000Z', 'erasure-ledger.jsonl']);
    expect(readFileSync(join(dir, 'erasure-ledger.jsonl'), 'utf8')).toBe('an erasure\n');
    expect((await verifyBackup(FILES, join(dir, '2026-11-28T12-00-00-000Z'), SERVICE_KEY)).problems).toEqual([]);
    expect(logs.filter((l) => l.message === 'backup taken').map((l) => l.context.pruned)).toEqual([0, 0, 1]);
    // The newest backup is 6 hours old now; a new process reads it back, so its age (the alert's reading) is right.
    const restarted = schedule();
    expect(restarted.lastSuccessAt?.toISOString()).toBe('2026-11-28T12:00:00.000Z');
    expect(restarted.ageSeconds()).toBe(6 * 3600);
    const metrics = new Metrics(['projector'], { warn: () => undefined }, { processMetrics: false });
    observeBackups(metrics, restarted, 6 * HOUR);
    const scraped = parseExposition(await metrics.exposition());
    expect(scraped.sum('trainee_records_backup_last_success_timestamp_seconds')).toBe(Date.parse('2026-11-28T12:00:00.000Z') / 1000);
    expect(scraped.sum('trainee_records_backup_age_seconds')).toBe(6 * 3600);
    expect(scraped.sum('trainee_records_backup_interval_seconds')).toBe(6 * 3600);
  }, 120_000);

  it('logs a failed run, leaves no partial backup behind, and goes on', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const failing = schedule(empty);
    await failing.runNow();
    expect(failing.counts).toEqual({ taken: 0, failed: 1 });
    expect(logs[logs.length - 1]).toMatchObject({ message: 'backup failed; the schedule goes on' });
    expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
    expect(existsSync(dir)).toBe(true);
  });
});
