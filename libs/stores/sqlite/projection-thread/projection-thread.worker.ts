/**
 * The projection thread of the API on the embedded stores (docs/DESIGN.md "The projection
 * thread"): the one writer of the event log and of the read models. It commits the appends the
 * API's thread posts (checked and serialized there) in group commits, everything posted while the
 * previous commit synced in the next one; it runs the projector on its own connections, woken in
 * this thread by each commit; and it tells the API's thread of each commit (its subscriptions
 * read the log) and of each move of the checkpoint (writers waiting for their events are
 * released). Started by `ProjectionThread` with a {@link ProjectionThreadJob} as `workerData.job`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RecordedEvent } from '@app/event-sourcing';
import { PROVIDER_STREAM_PREFIX } from '@app/providers/decider';
import { Projector } from '@app/runtime/projector';
import { tracedEvents } from '@app/runtime/telemetry';
import { openSqliteEventStore } from '../event-log/sqlite-event-store';
import { appendSignals } from '../event-log/sqlite-subscription';
import { SqliteReadModel } from '../read-models/sqlite-read-model';
import { carry, type FromThread, type ProjectionThreadJob, type ToThread, type UnitOutcome } from './messages';

const job = (workerData as { job: ProjectionThreadJob }).job;
const port = parentPort!;
const post = (message: FromThread): void => port.postMessage(message);

const events = openSqliteEventStore(job.dataDir);
const readModel = SqliteReadModel.open(job.dataDir);

/** What the batches applied since the checkpoint last moved hold, for the next `applied` message. */
let pending = { events: 0, seconds: 0, providerEvents: false, traced: [] as { type: string; traceparent: string }[] };

const projector = new Projector(
  events,
  readModel,
  {
    error: (message, context) => post({ type: 'log', level: 'error', message, context }),
    warn: (message, context) => post({ type: 'log', level: 'warn', message, context }),
  },
  {
    maxAttempts: job.maxAttempts,
    onBatchStored: (batch, seconds) => {
      pending.events += batch.length;
      pending.seconds += seconds;
    },
    onApplied: (batch: readonly RecordedEvent[]) => {
      if (batch.some((e) => e.streamId.startsWith(PROVIDER_STREAM_PREFIX))) pending.providerEvents = true;
      if (job.traced) pending.traced.push(...tracedEvents(batch));
    },
    onAdvanced: (checkpoint) => {
      post({ type: 'applied', checkpoint, ...pending, health: projector.health() });
      pending = { events: 0, seconds: 0, providerEvents: false, traced: [] };
    },
    onFatal: (error) => post({ type: 'fatal', error: carry(error) }),
  },
);

// Each commit of this thread's writer: the API's thread wakes its own subscriptions.
if (events.file) appendSignals.on(events.file, () => post({ type: 'committed' }));

/** Commits the units of one `append` message (each all-or-nothing; one group commit for all pending) and answers their outcomes. */
async function append(id: number, units: Parameters<typeof events.appendWrites>[0][]): Promise<void> {
  const outcomes = await Promise.all(
    units.map((unit) =>
      events.appendWrites(unit).then(
        (outcomes): UnitOutcome => ({ ok: true, outcomes }),
        (error: unknown): UnitOutcome => ({ ok: false, error: carry(error) }),
      ),
    ),
  );
  post({ type: 'appended', id, units: outcomes });
}

/** Runs a request of the API's thread and answers it `done` (with the checkpoint) or `failed`. */
async function answer(id: number, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
    post({ type: 'done', id, checkpoint: projector.checkpoint, health: projector.health() });
  } catch (error) {
    post({ type: 'failed', id, error: carry(error) });
  }
}

port.on('message', (message: ToThread) => {
  switch (message.type) {
    case 'append':
      void append(message.id, message.units);
      return;
    case 'catch-up':
      void answer(message.id, () => projector.catchUp());
      return;
    case 'start':
      void answer(message.id, async () => {
        await projector.catchUp();
        await projector.start();
      });
      return;
    case 'stop':
      void answer(message.id, () => projector.stop());
      return;
    case 'close':
      void answer(message.id, async () => {
        await projector.stop();
        await events.close();
        readModel.close();
      }).then(() => port.close());
      return;
  }
});
