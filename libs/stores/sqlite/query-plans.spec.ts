/**
 * No work on the write path or in a loop woken by writes grows with the size of the log or the
 * number of trainees (docs/DESIGN.md "Bounded cost per trainee"): every statement the SQLite
 * adapters prepare, while a trainee is written, projected, read, listed, fed to the change feed and
 * to the webhook outbox, is planned on an index range or a key of each table that grows with the
 * log or the trainees, never by a walk of the whole table; and a range read of the event log by
 * stream id binds one lower bound, so SQLite starts its range there.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOG_START, logPosition, newEventId, toEventData } from '@app/event-sourcing';
import { traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration, traineeUpdated, TRAINEE_ID, UKPRN } from '@app/trainees/decider/testing/trainee-events';
import { providerRegistered } from '@app/providers/decider/testing/provider-fixtures';
import { providerStreamId } from '@app/providers/decider';
import { measureLag, Projector } from '@app/runtime/projector';
import { openSqliteEventStore, SqliteIdempotencyStore, SqliteReadModel, SqliteWebhookOutbox } from '@app/stores/sqlite';
import { StreamRanges } from './event-log/stream-ranges';

/** Tables whose rows grow with the log, the trainees, the changes or the deliveries. */
const GROWING = /^(events|trainees_\w+|trainee_answers_\w+|trainee_changes_\w+|webhook_deliveries|idempotency_keys)$/;

/** Walks of a growing table that stay bounded, and why. */
const BOUNDED_WALKS: readonly { table: string; index: string; why: string }[] = [
  { table: 'd', index: 'webhook_deliveries_pending', why: 'a partial index of the pending deliveries, read up to the batch limit' },
  {
    table: 'webhook_deliveries',
    index: 'webhook_deliveries_due',
    why: 'the pending count, taken at scrape time on the index of pending deliveries',
  },
  {
    table: 'idempotency_keys',
    index: '',
    why: "an erasure's one pass over the kept answers (a day's keys at most, pruned), by the admin CLI, never on a request",
  },
  {
    table: 'webhook_deliveries',
    index: '',
    why: "an erasure's pass over every delivery (not bounded; by the admin CLI, never on a request): an index on trainee_id would cost every delivery's insert",
  },
];

const QUIET = { error: () => undefined, warn: () => undefined };
const AT = '2026-01-01T00:00:00.000Z';

describe('the SQLite adapters’ query plans', () => {
  const prepared = new Map<Database.Database, Set<string>>();
  const prepare = Database.prototype.prepare;
  let dir: string;
  /** Every prepared statement that reads or writes rows, with its plan, taken before the stores close. */
  let driven: { sql: string; plan: string[] }[];

  beforeAll(async () => {
    Database.prototype.prepare = function (this: Database.Database, sql: string) {
      if (!prepared.has(this)) prepared.set(this, new Set());
      prepared.get(this)!.add(sql);
      return prepare.call(this, sql);
    } as typeof prepare;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'query-plans-'));
    const events = openSqliteEventStore(dir);
    const reads = SqliteReadModel.open(dir);
    const outbox = SqliteWebhookOutbox.open(dir);
    const keys = SqliteIdempotencyStore.open(dir);
    let log: Database.Database | undefined;
    try {
      await events.appendToStream(
        providerStreamId(UKPRN),
        toEventData([providerRegistered({ ukprn: UKPRN })], { occurredAt: AT }, newEventId),
      );
      const history = [...exampleRegistration(), traineeUpdated({ changes: { middle_names: 'Ann' } })];
      await events.appendToStream(traineeStreamId(TRAINEE_ID), toEventData(history, { occurredAt: AT }, newEventId));
      await new Projector(events, reads, QUIET).catchUp();
      await reads.getTraineeSnapshot(TRAINEE_ID);
      await reads.getTraineeAnswer(TRAINEE_ID, 'v2026.1');
      await reads.findDuplicateCandidates(UKPRN, '1990-01-01', '11', 'doe');
      await reads.providerTraineeIds(UKPRN);
      await reads.listChanges(UKPRN, LOG_START, 10);
      await reads.changesBetween(LOG_START, logPosition(100), 10);
      await measureLag(events, await reads.checkpoint());
      events.readStreamsByPrefix({ streamPrefix: 'webhook-', afterStream: null, toPosition: logPosition(100), maxCount: 10 });
      // A stream phase's ranges, from the start and from a cursor, to a stream and to the end; its streams in the order they began.
      log = new Database(path.join(dir, 'events.sqlite'), { readonly: true });
      const ranges = new StreamRanges(log);
      for (const afterStream of [null, traineeStreamId('A')]) {
        const start = { streamPrefix: 'trainee-', afterStream, toPosition: 100 };
        ranges.read(start, ranges.end(start, 2));
        ranges.read(start, traineeStreamId(TRAINEE_ID));
      }
      ranges.readStreams(ranges.inCreationOrder('trainee-', 100).streams, 100);
      await events.readStream(traineeStreamId(TRAINEE_ID), { fromRevision: 2 });
      await outbox.due(Date.parse(AT), 10);
      await keys.claim('scope', 'key', 'fingerprint', new Date(AT));
      await keys.prune(new Date(AT));
      await keys.forget('T-erased');
      await outbox.forgetTrainee('T-erased');
      driven = plans();
    } finally {
      Database.prototype.prepare = prepare;
      await events.close();
      reads.close();
      await outbox.close();
      await keys.close();
      log?.close();
    }
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Every statement prepared so far that reads or writes rows, with its plan. */
  function plans(): { sql: string; plan: string[] }[] {
    const out: { sql: string; plan: string[] }[] = [];
    for (const [db, statements] of prepared) {
      for (const sql of statements) {
        if (!/^\s*(SELECT|UPDATE|DELETE|WITH)\b/i.test(sql)) continue;
        const explain = prepare.call(db, `EXPLAIN QUERY PLAN ${sql}`) as Database.Statement<unknown[]>;
        const named = [...new Set([...sql.matchAll(/[@$:]([A-Za-z_]\w*)/g)].map((m) => m[1]))];
        const binds: unknown[] =
          named.length > 0 ? [Object.fromEntries(named.map((k) => [k, null]))] : Array((sql.match(/\?/g) ?? []).length).fill(null);
        const rows = explain.all(...binds) as { detail: string }[];
        out.push({ sql: sql.replace(/\s+/g, ' ').trim(), plan: rows.map((r) => r.detail) });
      }
    }
    return out;
  }

  it('prepared the statements of every path it drove (events, trainees, answers, changes, deliveries, keys)', () => {
    const tables = driven.flatMap((p) => p.plan.map((line) => /(?:SEARCH|SCAN) (\w+)/.exec(line)?.[1] ?? ''));
    for (const table of ['events', 'webhook_deliveries', 'idempotency_keys']) expect(tables).toContain(table);
    expect(tables.some((t) => /^trainees_v\d+$/.test(t))).toBe(true);
    expect(tables.some((t) => /^trainee_answers_v\d+$/.test(t) || t === 'a')).toBe(true);
  });

  it('never walk a table that grows with the log or the trainees', () => {
    const walks = driven.flatMap(({ sql, plan }) =>
      plan
        .map((line) => /^SCAN (\w+)(?: USING (?:COVERING )?INDEX (\w+))?/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .filter(([, table]) => GROWING.test(table) || BOUNDED_WALKS.some((b) => b.table === table))
        .filter(([, table, index = '']) => !BOUNDED_WALKS.some((b) => b.table === table && b.index === index))
        .map(([line]) => `${line}  ←  ${sql.slice(0, 140)}`),
    );
    expect(walks).toEqual([]);
  });

  it('read the event log by a range of stream ids from one lower bound (and one upper bound for one category)', () => {
    const ranges = driven.filter(({ sql }) => /FROM events WHERE stream_id (>|>=) \?/.test(sql));
    expect(ranges.filter(({ sql }) => /stream_id <=? \?/.test(sql)).length).toBeGreaterThanOrEqual(2);
    expect(ranges.some(({ sql }) => !/stream_id <=? \?/.test(sql))).toBe(true);
    for (const { sql, plan } of ranges) {
      expect(sql.match(/stream_id (>|>=) \?/g)).toHaveLength(1);
      const upper = /stream_id <=? \?/.test(sql) ? ' AND stream_id<\\?' : '';
      expect(plan.join('\n')).toMatch(new RegExp(`SEARCH events USING (?:COVERING )?INDEX \\w+ \\(stream_id>\\?${upper}\\)`));
    }
  });
});
