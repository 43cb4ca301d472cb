import type { EventStoreDBClient, StreamingRead } from '@eventstore/db-client';
import { EventStoreUnavailableError } from '@app/event-sourcing';
import { classifySubscriptionError } from './errors';

const ignore = (): void => undefined;

/** A connection carries ~100 concurrent HTTP/2 streams (ConcurrencyLimiter). */
export const DEFAULT_MAX_CONCURRENT_APPENDS = 32;
/** Standalone reads: an append's own reads run in its slot. */
export const DEFAULT_MAX_CONCURRENT_READS = 32;
/** Per limiter, before further calls fail at once (503). */
export const DEFAULT_MAX_QUEUED_CALLS = 1000;
/** Client 6.2.1 gives its server features call no deadline (`Client/ServerFeatures.ts`). */
export const DEFAULT_SERVER_FEATURES_DEADLINE_MS = 10_000;
/** Client 6.2.1 gives reads no deadline. */
export const DEFAULT_READ_DEADLINE_MS = 10_000;
/**
 * Client 6.2.1's batch append call has none (`deadline: Infinity`, `streams/appendToStream/batchAppend.ts`); the server answers
 * `Timeout` after the client's default deadline (10 s), so this is past it.
 */
export const DEFAULT_APPEND_DEADLINE_MS = 15_000;

/**
 * The client's errors that say the server cannot answer now (connection or leader gone, a deadline or the server's timeout passed)
 * as {@link EventStoreUnavailableError} (the API: 503 with `Retry-After`); other errors as they are. An append so failed may yet be
 * written (a server `Timeout` is ambiguous): a retry reads the stream first.
 */
export function unavailableIfTransient(error: unknown, call: string): unknown {
  if (error instanceof EventStoreUnavailableError || classifySubscriptionError(error) !== 'drop') return error;
  return new EventStoreUnavailableError(
    `EventStoreDB could not answer ${call} (${(error as Error).name ?? 'error'}): it may yet have been done`,
  );
}

/** `promise`'s outcome, or {@link EventStoreUnavailableError} with `message` past `deadlineMs` (the call itself goes on). */
export async function within<T>(deadlineMs: number, promise: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EventStoreUnavailableError(message)), deadlineMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Every item of a streaming read within `deadlineMs`, else {@link EventStoreUnavailableError}: a hung read would hold its caller and
 * slot for ever. Past it both the readable is destroyed and the call cancelled: the client pipes the call into the readable
 * (`src/streams/utils/ReadStream.ts`), and destroying a pipe's destination leaves its source open on the server.
 */
export async function collectWithin<T>(deadlineMs: number, read: StreamingRead<T>): Promise<T[]> {
  read.on('error', ignore);
  const timer = setTimeout(() => {
    read.destroy(new EventStoreUnavailableError(`an EventStoreDB read took over ${deadlineMs} ms`));
    read.cancel().catch(ignore);
  }, deadlineMs);
  try {
    const items: T[] = [];
    for await (const item of read) items.push(item);
    return items;
  } catch (error) {
    throw unavailableIfTransient(error, 'a read');
  } finally {
    clearTimeout(timer);
  }
}

/** Client 6.2.1's `dispose()` leaves the channel open; `getChannel` (protected in its types) creates no connection. Errors ignored. */
export async function closeChannel(client: EventStoreDBClient): Promise<void> {
  try {
    const channel = await (client as unknown as { getChannel(): Promise<{ close(): void }> }).getChannel();
    channel.close();
  } catch {
    // Nothing left to close.
  }
}
