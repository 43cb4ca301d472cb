/**
 * Data dirs written before `state.sqlite` kept the idempotency keys, the webhook outbox and the
 * registry process manager's position in `read-models.sqlite`: the first open moves them, once,
 * and a process that dies anywhere in the move loses and repeats nothing.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logPosition } from '@app/event-sourcing';
import { REGISTRY_PM_CHECKPOINT } from '@app/registry';
import { SqliteReadModel } from './read-models/sqlite-read-model';
import { SqliteConsumerCheckpoints } from './sqlite-consumer-checkpoints';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';
import { SqliteWebhookOutbox } from './sqlite-webhook-outbox';
import { MOVED_TABLES, moveStateOutOfReadStore, type MoveStep } from './state-migration';

const NOW = new Date('2026-12-01T10:00:00.000Z');
const ANSWER = { status: 201, contentType: 'application/json', body: '{"data":{"trainee_id":"T1"}}' };

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'state-move-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A data dir as the code before `state.sqlite` left it: every kept table in `read-models.sqlite`, beside a read store. */
async function olderDataDir(): Promise<void> {
  const file = join(dir, 'read-models.sqlite');
  const readModel = SqliteReadModel.open(dir);
  await readModel.writeCheckpoint(REGISTRY_PM_CHECKPOINT, logPosition(42));
  readModel.close();
  const keys = new SqliteIdempotencyStore(file);
  const claim = await keys.claim('token-1', 'key-1', 'fingerprint-1', NOW);
  if (claim.outcome !== 'claimed') throw new Error('not claimed');
  await keys.complete('token-1', 'key-1', claim.claim, ANSWER);
  keys.close();
  const outbox = new SqliteWebhookOutbox(file);
  await outbox.ingest({
    endpoints: [
      {
        endpoint_id: 'E1',
        ukprn: '10000001',
        url: 'https://example.org/hook',
        event_types: [],
        api_version: 'v2026.1',
        secret: 'sealed2.1.x',
        status: 'active',
        added_position: logPosition(3),
        disabled_reason: null,
      },
    ],
    deliveries: [1, 2].map((n) => ({
      delivery_id: `E1.${n + 4}`,
      endpoint_id: 'E1',
      position: logPosition(n + 4),
      trainee_id: 'T1',
      message_id: `msg_${n}`,
      payload: '{}',
      next_attempt_at: 0,
    })),
    abandonFor: [],
    at: NOW.getTime(),
    checkpoint: logPosition(40),
  });
  outbox.close();
}

/** What `read-models.sqlite` still holds of the kept state: its tables, and whether the registry's position is there. */
function leftInReadStore(): { tables: string[]; position: boolean } {
  const db = new Database(join(dir, 'read-models.sqlite'), { readonly: true });
  try {
    const tables = db.prepare<[], string>(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all();
    const position = db.prepare(`SELECT 1 FROM projection_checkpoints WHERE name = ?`).get(REGISTRY_PM_CHECKPOINT) !== undefined;
    return { tables: tables.filter((t) => (MOVED_TABLES as readonly string[]).includes(t)), position };
  } finally {
    db.close();
  }
}

/** The kept state as the stores read it from `state.sqlite`. */
async function keptState(): Promise<{ replay: unknown; endpoints: number; deliveries: number; outbox: number; registry: number }> {
  const keys = SqliteIdempotencyStore.open(dir);
  const outbox = SqliteWebhookOutbox.open(dir);
  const positions = SqliteConsumerCheckpoints.open(dir);
  try {
    return {
      replay: await keys.claim('token-1', 'key-1', 'fingerprint-1', NOW),
      endpoints: (await outbox.endpoints()).length,
      deliveries: (await outbox.deliveries('E1', 100)).length,
      outbox: await outbox.checkpoint(),
      registry: await positions.readCheckpoint(REGISTRY_PM_CHECKPOINT),
    };
  } finally {
    keys.close();
    outbox.close();
    positions.close();
  }
}

const MOVED = { replay: { outcome: 'replay', answer: ANSWER }, endpoints: 1, deliveries: 2, outbox: 40, registry: 42 };

/** A move stopped at `at`, as a process that dies there stops it. */
function dieAt(at: MoveStep): void {
  const crash = new Error(`died at ${at}`);
  expect(() =>
    moveStateOutOfReadStore(dir, {
      onStep: (step) => {
        if (step === at) throw crash;
      },
    }),
  ).toThrow(crash);
}

describe('moveStateOutOfReadStore', () => {
  it('moves every kept table and the registry position into state.sqlite, drops them from the read store, once', async () => {
    await olderDataDir();
    expect(leftInReadStore()).toEqual({ tables: [...MOVED_TABLES], position: true });
    const moved = moveStateOutOfReadStore(dir);
    expect(moved).toEqual({
      tables: [
        { name: 'idempotency_keys', rows: 1 },
        { name: 'webhook_endpoints', rows: 1 },
        { name: 'webhook_deliveries', rows: 2 },
        { name: 'webhook_dispatcher', rows: 1 },
      ],
      positions: 1,
      unreadable: [],
    });
    expect(leftInReadStore()).toEqual({ tables: [], position: false });
    expect(await keptState()).toEqual(MOVED);
    expect(moveStateOutOfReadStore(dir)).toBeNull();
    // The read store still opens and serves.
    const readModel = SqliteReadModel.open(dir);
    expect(await readModel.checkpoint()).toBe(0);
    readModel.close();
  });

  it('copies nothing when the process dies in the copy, and the next open moves everything', async () => {
    await olderDataDir();
    dieAt('copying');
    expect(leftInReadStore()).toEqual({ tables: [...MOVED_TABLES], position: true });
    expect(moveStateOutOfReadStore(dir)?.tables.map((t) => t.rows)).toEqual([1, 1, 2, 1]);
    expect(leftInReadStore()).toEqual({ tables: [], position: false });
    expect(await keptState()).toEqual(MOVED);
  });

  it('copies nothing twice when the process dies between the copy and the drops: the next open only drops', async () => {
    await olderDataDir();
    dieAt('copied');
    expect(leftInReadStore()).toEqual({ tables: [...MOVED_TABLES], position: true });
    // State written after the copy (the next start's) stays as written.
    const keys = SqliteIdempotencyStore.open(dir);
    await keys.claim('token-1', 'key-2', 'fingerprint-2', NOW);
    keys.close();
    expect(moveStateOutOfReadStore(dir)).toEqual({ tables: [], positions: 0, unreadable: [] });
    expect(leftInReadStore()).toEqual({ tables: [], position: false });
    expect(await keptState()).toEqual(MOVED);
    const count = new Database(join(dir, 'state.sqlite'), { readonly: true });
    expect(count.prepare(`SELECT COUNT(*) FROM idempotency_keys`).pluck().get()).toBe(2);
    count.close();
  });

  it('has nothing to move in a data dir without a read store, or whose read store holds none of it', async () => {
    expect(moveStateOutOfReadStore(dir)).toBeNull();
    SqliteReadModel.open(dir).close();
    expect(moveStateOutOfReadStore(dir)).toBeNull();
  });
});
