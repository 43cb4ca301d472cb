/**
 * What the event store contract's suites share (test/contract/event-store.contract.ts): events with
 * complete metadata, single-event appends, the checks of positions and rejections, and waits that
 * fail instead of hanging.
 */
import { randomUUID } from 'node:crypto';
import { withoutChainKeys, type EventData, type EventMetadata, type EventStore, type RecordedEvent } from '@app/event-sourcing';

/** Safety net so a broken subscription fails a test instead of hanging it (not a timing assertion). */
const LIVENESS_LIMIT_MS = 10_000;

/** A new event with a random UUID and complete metadata. */
export function event(type: string, data: unknown): EventData {
  const metadata: EventMetadata = {
    schemaVersion: 1,
    occurredAt: '2026-01-05T10:00:00.000Z',
    providerUkprn: '10000001',
    apiVersion: 'v2026.1',
    requestId: randomUUID(),
    causationId: null,
    tokenId: 'token-1',
    custom: { nested: ['kept'] },
  };
  return { id: randomUUID(), type, data, metadata };
}

/**
 * Makes `count` single-event appends, one after the other, round-robin over the streams
 * `<streamPrefix>1` … `<streamPrefix><streams>`; returns the events in append order (ids lower-case).
 */
export async function appendMany(
  store: EventStore,
  streamPrefix: string,
  count: number,
  streams: number,
): Promise<Array<EventData & { id: string }>> {
  const written: EventData[] = [];
  for (let i = 0; i < count; i++) {
    const e = event('Appended', { i });
    await store.appendToStream(`${streamPrefix}${(i % streams) + 1}`, [e]);
    written.push({ ...e, id: e.id.toLowerCase() });
  }
  return written;
}

/**
 * The event as the writer gave it, without the store's placement fields and the chain keys it adds
 * (test/contract/event-store-chain.contract.ts).
 */
export function strip(e: RecordedEvent): EventData {
  return { id: e.id, type: e.type, data: e.data, metadata: withoutChainKeys(e.metadata) };
}

/** Fails unless `values` are positive integers, each above the one before. */
export function expectStrictlyIncreasing(values: number[]): void {
  for (let i = 1; i < values.length; i++) {
    if (!(values[i] > values[i - 1])) {
      throw new Error(`expected strictly increasing positions, got ${values[i - 1]} then ${values[i]} at index ${i}`);
    }
  }
  expect(values.every((v) => Number.isInteger(v) && v > 0)).toBe(true);
}

/** The error `promise` rejects with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** The next `count` events of `iterator`; fails (instead of hanging) if they do not all arrive. */
export async function take(iterator: AsyncIterator<RecordedEvent>, count: number): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  const collect = (async () => {
    while (received.length < count) {
      const next = await iterator.next();
      if (next.done) throw new Error(`subscription ended after ${received.length} of ${count} events`);
      received.push(next.value);
    }
    return received;
  })();
  return withLimit(collect, () => `${count} events (received ${received.length})`);
}

/** `promise`, or a failure naming `what` if it has not settled within the liveness limit. */
export async function withLimit<T>(promise: Promise<T>, what: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${typeof what === 'string' ? what : what()}`)), LIVENESS_LIMIT_MS);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves after `ms` milliseconds. */
export function settleFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
