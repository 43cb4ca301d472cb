import type { EventStoreDBClient, StreamingRead } from '@eventstore/db-client';
import { EventStoreUnavailableError } from '@app/event-sourcing';

const ignore = (): void => undefined;

/** Default appends in flight per store (a connection carries ~100 concurrent HTTP/2 streams; see ConcurrencyLimiter). */
export const DEFAULT_MAX_CONCURRENT_APPENDS = 32;
/** Default reads in flight per store (standalone reads: an append's own reads run in its slot). */
export const DEFAULT_MAX_CONCURRENT_READS = 32;
/** Calls allowed to wait for a slot, per limiter, before further ones fail at once (503). */
export const DEFAULT_MAX_QUEUED_CALLS = 1000;
/** How long a read may take (client 6.2.1 gives reads no deadline), ms. */
export const DEFAULT_READ_DEADLINE_MS = 10_000;

/**
 * Every item of a streaming read, within `deadlineMs`: past it the read's gRPC call is cancelled,
 * its readable destroyed, and the call rejects with {@link EventStoreUnavailableError}. Client 6.2.1
 * calls reads with no deadline, so without this a hung read would hold its caller, and its slot,
 * for ever. Both are needed: the client pipes the gRPC call into the readable it returns
 * (`src/streams/utils/ReadStream.ts`), and destroying a pipe's destination leaves its source open,
 * so only `cancel()` (`stream.cancel()` on the call) ends the call on the server. Other errors pass on.
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
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes the client's gRPC channel, which `dispose()` of client 6.2.1 leaves open (it only cancels
 * the calls). `getChannel` is the client's own (protected in its types) and creates no connection
 * (a channel connects on its first call). Errors are ignored: the client is being let go.
 */
export async function closeChannel(client: EventStoreDBClient): Promise<void> {
  try {
    const channel = await (client as unknown as { getChannel(): Promise<{ close(): void }> }).getChannel();
    channel.close();
  } catch {
    // Nothing left to close.
  }
}
