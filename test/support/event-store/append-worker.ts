/**
 * Child process of test/contract/sqlite-event-store.multiprocess.contract-spec.ts: appends to a
 * shared SQLite data directory while another process does the same.
 *
 * Usage: `tsx append-worker.ts <dataDir> <worker> <ownEvents> <sharedStreams> <sharedAppends>`.
 * Prints `ready` once the store is open, waits for a `go` line on stdin (so both processes start
 * together), then appends and prints one JSON line, {@link WorkerReport}, and exits 0 (1 on error).
 *
 * - `ownEvents` events go to the worker's own streams `own-<worker>-0..9` in batches of 1 to 3,
 *   each with the exact expected revision (single writer per stream).
 * - `sharedAppends` single events go to the streams `shared-0..<sharedStreams-1>`, raced by every
 *   worker: read the stream, append with its last revision as the expected revision, and on
 *   WrongExpectedVersionError read again and retry (docs/DESIGN.md, property 2: no lost update).
 *   Each event's data records the revision it expected.
 */
import { randomUUID } from 'node:crypto';
import * as readline from 'node:readline';
import { EventData, ExpectedRevision, WrongExpectedVersionError } from '@app/event-sourcing';
import { openSqliteEventStore } from '@app/stores/sqlite';

/** One acknowledged append of one event, as the worker saw its result. */
export interface AcknowledgedEvent {
  id: string;
  streamId: string;
  /** Revision and position reported by the append that wrote this event. */
  revision: number;
  position: number;
}

/** The JSON line a worker prints when done. */
export interface WorkerReport {
  worker: string;
  acknowledged: AcknowledgedEvent[];
  /** WrongExpectedVersionError retries on the shared streams. */
  conflicts: number;
}

const OWN_STREAMS = 10;
const MAX_ATTEMPTS = 10_000;

async function main(): Promise<void> {
  const [dataDir, worker, ownEventsArg, sharedStreamsArg, sharedAppendsArg] = process.argv.slice(2);
  const ownEvents = Number(ownEventsArg);
  const sharedStreams = Number(sharedStreamsArg);
  const sharedAppends = Number(sharedAppendsArg);
  if (!dataDir || !worker || !(ownEvents >= 0) || !(sharedStreams >= 1) || !(sharedAppends >= 0)) {
    throw new Error('usage: append-worker.ts <dataDir> <worker> <ownEvents> <sharedStreams> <sharedAppends>');
  }

  const store = openSqliteEventStore(dataDir);
  process.stdout.write('ready\n');
  await waitForLine('go');

  const acknowledged: AcknowledgedEvent[] = [];
  let conflicts = 0;
  const ownRevision = new Map<string, number>();
  let ownWritten = 0;
  let sharedWritten = 0;
  let step = 0;

  const appendOwn = async (): Promise<void> => {
    const streamId = `own-${worker}-${step % OWN_STREAMS}`;
    const size = Math.min(1 + (step % 3), ownEvents - ownWritten);
    const batch = Array.from({ length: size }, (_, i) => newEvent('OwnAppended', { worker, n: ownWritten + i }));
    const last = ownRevision.get(streamId);
    const result = await store.appendToStream(streamId, batch, { expectedRevision: last ?? 'no_stream' });
    batch.forEach((e, i) =>
      acknowledged.push({
        id: e.id,
        streamId,
        revision: result.nextExpectedRevision - (size - 1 - i),
        position: result.position - (size - 1 - i),
      }),
    );
    ownRevision.set(streamId, result.nextExpectedRevision);
    ownWritten += size;
  };

  const appendShared = async (): Promise<void> => {
    const streamId = `shared-${sharedWritten % sharedStreams}`;
    for (let attempt = 1; ; attempt++) {
      const events = await store.readStream(streamId);
      const expectedRevision: ExpectedRevision = events.length === 0 ? 'no_stream' : events[events.length - 1].streamRevision;
      // Give the other process time to commit between our read and our append, as a request
      // handler that decides between the two would: it widens the race this test is about.
      await new Promise((resolve) => setTimeout(resolve, 1));
      const e = newEvent('SharedAppended', {
        worker,
        n: sharedWritten,
        expected: expectedRevision === 'no_stream' ? -1 : expectedRevision,
      });
      try {
        const result = await store.appendToStream(streamId, [e], { expectedRevision });
        acknowledged.push({ id: e.id, streamId, revision: result.nextExpectedRevision, position: result.position });
        sharedWritten += 1;
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= MAX_ATTEMPTS) throw error;
        conflicts += 1;
      }
    }
  };

  while (ownWritten < ownEvents || sharedWritten < sharedAppends) {
    if (ownWritten < ownEvents) await appendOwn();
    if (sharedWritten < sharedAppends) await appendShared();
    step += 1;
  }

  await store.close();
  const report: WorkerReport = { worker, acknowledged, conflicts };
  await new Promise<void>((resolve, reject) =>
    process.stdout.write(`${JSON.stringify(report)}\n`, (error) => (error ? reject(error) : resolve())),
  );
}

function newEvent(type: string, data: Record<string, unknown>): EventData {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { schemaVersion: 1, occurredAt: new Date().toISOString(), pid: process.pid },
  };
}

function waitForLine(expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      if (line.trim() === expected) {
        resolve();
        lines.close();
      }
    });
    // After resolve() this reject is a no-op.
    lines.on('close', () => reject(new Error(`stdin closed before "${expected}"`)));
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
