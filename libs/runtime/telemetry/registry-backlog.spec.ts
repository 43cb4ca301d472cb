/**
 * The registry backlog gauge's count (registry-backlog.ts) over the SQLite log: the same count as a
 * filtered read from the checkpoint, while each scrape reads only what the log gained since the last.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { openSqliteEventStore, type SqliteEventStore } from '@app/stores/sqlite';
import { LOG_START, type LogPosition } from '@app/event-sourcing';
import { RegistryBacklog } from './registry-backlog';

describe('RegistryBacklog', () => {
  let dir: string;
  let log: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'registry-backlog-'));
    log = openSqliteEventStore(dir);
  });
  afterEach(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const append = async (types: string[]): Promise<LogPosition[]> => {
    const positions: LogPosition[] = [];
    for (const type of types) {
      const event = { id: randomUUID(), type, data: {}, metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' } };
      positions.push((await log.appendToStream(`s-${randomUUID()}`, [event])).position);
    }
    return positions;
  };
  const filtered = async (checkpoint: LogPosition, cap: number) =>
    Math.min(cap, (await log.readAll({ fromPosition: checkpoint, maxCount: 100_000, filter: { eventTypes: ['Ask'] } })).length);

  it('counts the matching events after the checkpoint, up to the cap, as a filtered read would', async () => {
    const backlog = new RegistryBacklog(log, ['Ask'], 3);
    expect(await backlog.count(LOG_START)).toBe(0);
    const first = await append(['Ask', 'Other', 'Ask', 'Other']);
    expect(await backlog.count(LOG_START)).toBe(await filtered(LOG_START, 3));
    await append(['Ask', 'Ask', 'Ask', 'Other']);
    expect(await backlog.count(LOG_START)).toBe(3);
    // The process manager moves on: events at or below its checkpoint no longer count, and the
    // matching events passed over the cap are counted again.
    expect(await backlog.count(first[2])).toBe(await filtered(first[2], 3));
    const all = await log.readAll({ maxCount: 1000 });
    const fourthAsk = all.filter((e) => e.type === 'Ask')[3].position;
    expect(await backlog.count(fourthAsk)).toBe(await filtered(fourthAsk, 3));
    expect(await backlog.count(all[all.length - 1].position)).toBe(0);
  });

  it('reads only the events after the last scrape’s end', async () => {
    const backlog = new RegistryBacklog(log, ['Ask'], 1000);
    await append(['Ask', 'Other', 'Other']);
    await backlog.count(LOG_START);
    const read = jest.spyOn(log, 'readAll');
    const [next] = await append(['Other']);
    expect(await backlog.count(LOG_START)).toBe(1);
    expect(read.mock.calls.map(([options]) => options?.fromPosition)).toEqual([(await log.readAll({ maxCount: 3 }))[2].position]);
    const reads = await Promise.all(read.mock.results.map((r) => r.value as Promise<{ position: number }[]>));
    expect(reads[0].map((e) => e.position)).toEqual([next]);
  });
});
