/**
 * The list's status rule, one table through every place that applies it (libs/trainees/read/list-status.ts;
 * docs/reference/API-FACTS.md §14.4): a trainee in each state, starting on each of a few dates (mid-month,
 * the last day of a year, the first day of March), listed by each `status` value, and by all of them at
 * once, on the day before, the day of and the day after each start. The SQLite read model's query, the
 * MongoDB read model's (only where `MONGODB_URL` names a server; otherwise reported as skipped) and the
 * JS rule must keep the same trainees.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import type { TraineeEvent } from '@app/trainees/decider';
import type { Trainee, TraineeStatus } from '@app/trainees/record';
import { matchesStatus, STATUS_FILTERS, type StatusFilter } from '@app/trainees/read';
import {
  traineeAwarded,
  traineeDeferred,
  traineeRecommendedForAward,
  traineeRegistered,
  traineeSubmittedForTrn,
  traineeWithdrawn,
  trnIssued,
} from '@app/trainees/decider/testing/trainee-events';
import { SqliteReadModel } from '@app/stores/sqlite';
import { MongoReadModel } from '@app/stores/mongodb';
import { EventLog, evolveAllTrainee, listQuery, randomHex, randomUkprn } from './read-model-fixtures';
import type { ContractReadModel } from './read-model.contract';
import { mongoUrlOrSkip } from '../support/mongo-suite';

/** The courses' starts: each is the edge of in_training and course_not_yet_started. */
const STARTS = ['2025-09-15', '2025-12-31', '2026-03-01'];

/** The day before, the day of and the day after each start. */
const TODAYS = [
  '2025-09-14',
  '2025-09-15',
  '2025-09-16',
  '2025-12-30',
  '2025-12-31',
  '2026-01-01',
  '2026-02-28',
  '2026-03-01',
  '2026-03-02',
];

const STATES: readonly TraineeStatus[] = [
  'draft',
  'submitted_for_trn',
  'trn_received',
  'recommended_for_award',
  'withdrawn',
  'deferred',
  'awarded',
];

/** Events leaving trainee `id` of `ukprn` in `state`, its course starting on `start` (its cycle 2025 whatever the start). */
function historyIn(id: string, ukprn: string, state: TraineeStatus, start: string): TraineeEvent[] {
  const details = { itt_start_date: start, trainee_start_date: '2025-09-01' };
  const events: TraineeEvent[] = [traineeRegistered({ trainee_id: id, ukprn, details })];
  if (state === 'draft') return events;
  events.push(traineeSubmittedForTrn({ trainee_id: id }));
  if (state === 'submitted_for_trn') return events;
  events.push(trnIssued({ trainee_id: id }));
  if (state === 'deferred') events.push(traineeDeferred({ trainee_id: id }));
  if (state === 'withdrawn') events.push(traineeWithdrawn({ trainee_id: id }));
  if (state === 'recommended_for_award' || state === 'awarded') events.push(traineeRecommendedForAward({ trainee_id: id }));
  if (state === 'awarded') events.push(traineeAwarded({ trainee_id: id }));
  return events;
}

/** The table's trainees, by id: one per state and start. */
function table(ukprn: string): Map<string, { events: TraineeEvent[]; trainee: Trainee }> {
  const run = randomHex();
  const trainees = new Map<string, { events: TraineeEvent[]; trainee: Trainee }>();
  for (const state of STATES)
    for (const start of STARTS) {
      const events = historyIn(`St${run}-${state}-${start}`, ukprn, state, start);
      const trainee = evolveAllTrainee(events);
      if (trainee.state !== state) throw new Error(`the history of ${state} left ${trainee.state}`);
      trainees.set(trainee.trainee_id, { events, trainee });
    }
  return trainees;
}

/** The queries: each status alone and all together, on each day. */
const QUERIES: { today: string; statuses: StatusFilter[] }[] = TODAYS.flatMap((today) => [
  ...STATUS_FILTERS.map((status) => ({ today, statuses: [status] })),
  { today, statuses: [...STATUS_FILTERS] },
]);

const key = (q: { today: string; statuses: StatusFilter[] }): string => `${q.today} ${q.statuses.join('|')}`;

/** What the JS rule keeps for each query, by {@link key}. */
function byTheRule(trainees: Map<string, { trainee: Trainee }>): Record<string, string[]> {
  return Object.fromEntries(
    QUERIES.map((q) => [
      key(q),
      [...trainees.values()]
        .filter(({ trainee }) => q.statuses.some((s) => matchesStatus(trainee, s, q.today)))
        .map(({ trainee }) => trainee.trainee_id)
        .sort(),
    ]),
  );
}

/** What the read model keeps for each query, by {@link key}. */
async function byTheReadModel(rm: ContractReadModel, ukprn: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const q of QUERIES) {
    const page = await rm.listTrainees(listQuery(ukprn, { statuses: q.statuses, today: q.today, perPage: 100 }));
    expect(page.totalCount).toBe(page.items.length);
    out[key(q)] = page.items.map((t) => t.trainee_id).sort();
  }
  return out;
}

/** Registers the suite for one read model; `open` gives a fresh one and its cleanup. */
function describeStatusRule(name: string, open: () => Promise<{ rm: ContractReadModel; cleanup(): Promise<void> }>): void {
  describe(`The list's status rule: ${name}, the JS rule`, () => {
    it('keeps the same trainees for every status, alone and together, on the days around each start', async () => {
      const { rm, cleanup } = await open();
      try {
        const ukprn = randomUkprn();
        const trainees = table(ukprn);
        const log = new EventLog(await rm.checkpoint());
        await rm.applyBatch([...trainees.values()].flatMap(({ events }) => log.trainee(events)));
        expect(await byTheReadModel(rm, ukprn)).toEqual(byTheRule(trainees));
      } finally {
        await cleanup();
      }
    });
  });
}

describe('the table of the status rule', () => {
  const trainees = table(randomUkprn());
  const rule = byTheRule(trainees);
  const idOf = (state: TraineeStatus, start: string): string =>
    [...trainees.values()].find(({ trainee }) => trainee.state === state && trainee.details.itt_start_date === start)!.trainee.trainee_id;

  it('reaches both sides of each start: course_not_yet_started the day before, in_training on the day and after', () => {
    const submitted = (start: string) => idOf('submitted_for_trn', start);
    expect(rule['2025-09-14 course_not_yet_started']).toContain(submitted('2025-09-15'));
    expect(rule['2025-09-14 in_training']).not.toContain(submitted('2025-09-15'));
    expect(rule['2025-09-15 in_training']).toContain(submitted('2025-09-15'));
    expect(rule['2025-09-15 course_not_yet_started']).not.toContain(submitted('2025-09-15'));
    expect(rule['2026-01-01 in_training']).toContain(submitted('2025-12-31'));
    expect(rule['2026-02-28 course_not_yet_started']).toContain(submitted('2026-03-01'));
  });

  it('gives every status a trainee on some day, and leaves a draft out of every one', () => {
    for (const status of STATUS_FILTERS) expect(TODAYS.some((today) => rule[`${today} ${status}`].length > 0)).toBe(true);
    const drafts = STARTS.map((start) => idOf('draft', start));
    for (const ids of Object.values(rule)) for (const draft of drafts) expect(ids).not.toContain(draft);
  });
});

describeStatusRule('SqliteReadModel', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'list-status-contract-'));
  const rm = SqliteReadModel.open(dataDir);
  return {
    rm,
    cleanup: async () => {
      rm.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

const url = mongoUrlOrSkip("The list's status rule: MongoReadModel", 'MongoDB status rule suite');
if (url) {
  describeStatusRule('MongoReadModel', async () => {
    const dbName = `lsc_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const rm = await MongoReadModel.connect(url, { dbName });
    return {
      rm,
      cleanup: async () => {
        await rm.close();
        const admin = new MongoClient(url);
        try {
          await admin.db(dbName).dropDatabase();
        } finally {
          await admin.close();
        }
      },
    };
  });
}
