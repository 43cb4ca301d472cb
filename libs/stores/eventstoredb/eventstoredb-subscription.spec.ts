/**
 * The resilient EventStoreDB subscription (eventstoredb-subscription.ts; docs/DESIGN.md "Failures
 * of the subscription") over a fake source: each server subscription is an object-mode stream the
 * test feeds or fails, as the client's subscription is. No server.
 */
import { Readable } from 'node:stream';
import {
  AccessDeniedError,
  START,
  UnavailableError,
  UnknownError,
  type AllStreamSubscription,
  type ReadPosition,
} from '@eventstore/db-client';
import { LOG_START, logPosition, PermanentSubscriptionError, type RecordedEvent } from '@app/event-sourcing';
import { EventStoreDbSubscription, SubscriptionLogger, SubscriptionSettings, SubscriptionSource } from './eventstoredb-subscription';
import { resolved } from './testing/test-events';

/** One server subscription: the test pushes items into it or destroys it with an error. */
class ServerSubscription extends Readable {
  readonly unsubscribe = jest.fn(async () => undefined);
  constructor() {
    super({ objectMode: true, read: () => undefined });
  }
}

interface Harness {
  subscription: EventStoreDbSubscription;
  iterator: AsyncIterator<RecordedEvent>;
  opened: { from: ReadPosition; server: ServerSubscription }[];
  logger: { warn: jest.Mock; error: jest.Mock };
  matchingHead: jest.Mock<Promise<number | null>, []>;
}

function harness(settings: SubscriptionSettings = {}, fromPosition = LOG_START): Harness {
  const opened: Harness['opened'] = [];
  const matchingHead = jest.fn<Promise<number | null>, []>(async () => 0);
  const source: SubscriptionSource = {
    subscribe: (from) => {
      const server = new ServerSubscription();
      opened.push({ from, server });
      return server as unknown as AllStreamSubscription;
    },
    forget: () => undefined,
    matchingHead,
  };
  const logger = { warn: jest.fn(), error: jest.fn() };
  const subscription = new EventStoreDbSubscription(source, fromPosition, null, {
    backoff: { initialMs: 1, maxMs: 2 },
    random: () => 0,
    stallAfterMs: 0,
    logger: logger as SubscriptionLogger,
    ...settings,
  });
  return { subscription, iterator: subscription[Symbol.asyncIterator](), opened, logger, matchingHead };
}

/** Resolves once `condition` holds (checked on every turn of the event loop). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

async function positionOf(next: Promise<IteratorResult<RecordedEvent>>): Promise<number> {
  const result = await next;
  if (result.done) throw new Error('the subscription ended');
  return result.value.position;
}

describe('EventStoreDbSubscription', () => {
  it('resubscribes after a dropped connection from the last event yielded, and logs the retry', async () => {
    const h = harness();
    const first = h.iterator.next();
    await until(() => h.opened.length === 1);
    expect(h.opened[0].from).toBe(START);
    h.opened[0].server.push(resolved(100));
    expect(await positionOf(first)).toBe(100);

    const second = h.iterator.next();
    h.opened[0].server.destroy(new UnavailableError());
    await until(() => h.opened.length === 2);
    expect(h.opened[1].from).toEqual({ commit: 100n, prepare: 100n });
    h.opened[1].server.push(resolved(100));
    h.opened[1].server.push(resolved(250));
    expect(await positionOf(second)).toBe(250);
    expect(h.logger.warn).toHaveBeenCalledWith(
      'EventStoreDB subscription failed; resubscribing',
      expect.objectContaining({ kind: 'drop', attempt: 1, resume_after: 100, error: expect.stringContaining('UnavailableError') }),
    );
    await h.subscription.unsubscribe();
  });

  it('ends with a PermanentSubscriptionError at once on a permanent error, without resubscribing', async () => {
    const h = harness();
    const next = h.iterator.next();
    await until(() => h.opened.length === 1);
    const denied = new AccessDeniedError();
    h.opened[0].server.destroy(denied);

    const error = await next.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PermanentSubscriptionError);
    expect((error as PermanentSubscriptionError).cause).toBe(denied);
    expect(h.opened).toHaveLength(1);
    expect(await h.iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('logs unknown errors at error level and gives up after maxUnknownFailures of them with nothing delivered', async () => {
    const h = harness({ maxUnknownFailures: 3 });
    const next = h.iterator.next();
    for (let n = 1; n <= 3; n++) {
      await until(() => h.opened.length === n);
      h.opened[n - 1].server.destroy(new UnknownError());
    }

    await expect(next).rejects.toThrow(/failed 3 times in a row with nothing delivered: UnknownError/);
    expect(h.logger.error).toHaveBeenCalledTimes(2);
    expect(h.logger.error).toHaveBeenCalledWith(
      'EventStoreDB subscription failed; resubscribing',
      expect.objectContaining({ kind: 'unknown' }),
    );
    expect(h.opened).toHaveLength(3);
  });

  it('counts unknown errors only in a row: a delivery in between starts the count again', async () => {
    const h = harness({ maxUnknownFailures: 2 });
    const first = h.iterator.next();
    await until(() => h.opened.length === 1);
    h.opened[0].server.destroy(new UnknownError());
    await until(() => h.opened.length === 2);
    h.opened[1].server.push(resolved(100));
    expect(await positionOf(first)).toBe(100);

    const second = h.iterator.next();
    h.opened[1].server.destroy(new UnknownError());
    await until(() => h.opened.length === 3);
    h.opened[2].server.push(resolved(200));
    expect(await positionOf(second)).toBe(200);
    await h.subscription.unsubscribe();
  });

  it('resubscribes a silent subscription while the log holds a matching event beyond what it reached', async () => {
    let clock = 0;
    const h = harness({ stallAfterMs: 10, now: () => clock }, logPosition(100));
    const next = h.iterator.next();
    await until(() => h.opened.length === 1);
    h.matchingHead.mockResolvedValue(300);
    clock = 1_000;

    await until(() => h.opened.length === 2);
    expect(h.opened[1].from).toEqual({ commit: 100n, prepare: 100n });
    expect(h.logger.warn).toHaveBeenCalledWith(
      'EventStoreDB subscription stalled: nothing delivered while the log has more; resubscribing',
      { silent_ms: 1_000, reached: 100, matching_head: 300 },
    );
    h.opened[1].server.push(resolved(300));
    expect(await positionOf(next)).toBe(300);
    await h.subscription.unsubscribe();
  });

  it('leaves an idle subscription alone when the matching head is what it reached', async () => {
    let clock = 0;
    const h = harness({ stallAfterMs: 10, now: () => clock }, logPosition(100));
    const next = h.iterator.next();
    await until(() => h.opened.length === 1);
    h.matchingHead.mockResolvedValue(100);
    clock = 1_000;

    await until(() => h.matchingHead.mock.calls.length >= 3);
    expect(h.opened).toHaveLength(1);
    await h.subscription.unsubscribe();
    expect(await next).toEqual({ done: true, value: undefined });
  });
});
