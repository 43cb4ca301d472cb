/**
 * The projection thread of the API on the embedded stores (docs/DESIGN.md "The projection
 * thread"): the one writer of the read models. It runs the projector on its own connections, woken
 * by each commit of the log writer thread (a message on the port it is started with), and tells the
 * API's thread of each move of the checkpoint (writers waiting for their events are released).
 * Started by `ProjectionThread` with a {@link ProjectionThreadJob} as `workerData.job` and the log
 * writer's port as `workerData.commits`.
 */
import { join } from 'node:path';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { RecordedEvent } from '@app/event-sourcing';
import { PROVIDER_STREAM_PREFIX } from '@app/providers/decider';
import { Projector } from '@app/runtime/projector';
import { tracedEvents } from '@app/runtime/telemetry';
import { keySourceIn } from '@app/keys';
import { withPersonalData } from '@app/personal-data';
import { openSqliteEventStore } from '../event-log/sqlite-event-store';
import { sqlitePersonalData } from '../sqlite-data-key-store';
import { SqliteReadModel } from '../read-models/sqlite-read-model';
import { READ_STORE_FILE } from '../read-models/read-store-file';
import { CHECKPOINTED_BY_THREAD, WalCheckpointer } from '../read-models/wal-checkpointer';
import { carry, type FromThread, type ProjectionThreadJob, type ToThread, type WriterCommitted } from './messages';

const { job, commits } = workerData as { job: ProjectionThreadJob; commits: MessagePort };
const port = parentPort!;
const post = (message: FromThread): void => port.postMessage(message);

const log = openSqliteEventStore(job.dataDir);
// Sealed personal values are opened with the trainees' data keys (docs/DESIGN.md "Personal data").
const keyEncryptionKeys = job.keyEncryptionKeys ? keySourceIn(job.keyEncryptionKeys) : null;
const keys = keyEncryptionKeys ? sqlitePersonalData(job.dataDir, keyEncryptionKeys) : null;
const events = keys ? withPersonalData(log, keys.personal) : log;
const readModel = SqliteReadModel.open(job.dataDir, { ...CHECKPOINTED_BY_THREAD, keyEncryptionKeys });
// The read store's WAL checkpoints, after this thread's commits, in a thread of their own.
const checkpointer = new WalCheckpointer(join(job.dataDir, READ_STORE_FILE), (message) =>
  post({ type: 'log', level: 'warn', message: `A WAL checkpoint of the read store failed: ${message}` }),
);

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
    onBatchStored: (batch, seconds) => {
      pending.events += batch.length;
      pending.seconds += seconds;
      checkpointer.committed();
    },
    onApplied: (batch: readonly RecordedEvent[]) => {
      if (batch.some((e) => e.streamId.startsWith(PROVIDER_STREAM_PREFIX))) pending.providerEvents = true;
      if (job.traced) pending.traced.push(...tracedEvents(batch));
    },
    onAdvanced: (checkpoint) => {
      post({ type: 'applied', checkpoint, ...pending, health: projector.health() });
      pending = { events: 0, seconds: 0, providerEvents: false, traced: [] };
    },
    onHealth: (health) => post({ type: 'health', health }),
    onFatal: (error) => post({ type: 'fatal', error: carry(error) }),
  },
);

// Each commit of the log writer wakes the projector's subscription, with the values of the events
// the API's thread sealed since the last one: the projector takes them instead of opening the boxes.
commits.on('message', (message: WriterCommitted) => {
  const sealed = message.sealed;
  if (sealed && keys) for (let i = 0; i < sealed.eventIds.length; i++) keys.personal.knowValues(sealed.eventIds[i], sealed.values[i]);
  log.signalAppended();
});

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
    case 'data-keys':
      for (let i = 0; i < message.ids.length; i++)
        keys?.personal.keys.learn(message.ids[i], Buffer.from(message.bytes.buffer, message.bytes.byteOffset + i * 32, 32));
      return;
    case 'close':
      void answer(message.id, async () => {
        await projector.stop();
        await events.close();
        await keys?.keyStore.close();
        await checkpointer.stop();
        readModel.close();
      }).then(() => {
        commits.close();
        port.close();
      });
      return;
  }
});
