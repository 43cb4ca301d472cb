/**
 * The log writer thread of the API on the embedded stores (docs/DESIGN.md "The projection
 * thread"): the one writer of the event log. It commits the appends the API's thread posts
 * (checked and serialized there) in group commits, everything posted while the previous commit
 * synced in the next one, answers each append once committed, and tells the API's thread and the
 * projection thread of each commit (the latter through the port it is started with). Its thread
 * mostly waits for the disk's sync, which so blocks neither HTTP nor the projector. Started by
 * `LogWriterThread` with a {@link LogWriterJob} as `workerData.job` and the projection thread's
 * port as `workerData.commits`.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { openSqliteEventStore } from '../event-log/sqlite-event-store';
import { appendSignals } from '../event-log/sqlite-subscription';
import {
  carry,
  holdSealedValues,
  type FromWriter,
  type LogWriterJob,
  type SealedValuesShared,
  type ToWriter,
  type UnitOutcome,
  type WriterCommitted,
} from './messages';

const { job, commits } = workerData as { job: LogWriterJob; commits: MessagePort };
const port = parentPort!;
const post = (message: FromWriter): void => port.postMessage(message);

const events = openSqliteEventStore(job.dataDir, { hashChain: job.hashChain });
/** The `append` messages not yet answered (their units are queued for, or in, a group commit). */
const inFlight = new Set<Promise<void>>();

/** Sealed values that came with appends since the last commit message (`SealedValuesShared`), for the projection thread. */
let sealed: SealedValuesShared | null = null;

// Each commit that wrote events: the API's thread wakes its own subscriptions, the projection thread its projector.
if (events.file)
  appendSignals.on(events.file, () => {
    commits.postMessage({ type: 'committed', sealed } satisfies WriterCommitted);
    sealed = null;
    post({ type: 'committed' });
  });

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

port.on('message', (message: ToWriter) => {
  if (message.type === 'append') {
    if (message.sealed) holdSealedValues((sealed ??= { eventIds: [], values: [] }), message.sealed.eventIds, message.sealed.values);
    const done = append(message.id, message.units).finally(() => inFlight.delete(done));
    inFlight.add(done);
    return;
  }
  // close: the queued units commit first (`close` flushes them), their answers go out, then the thread ends.
  const closing = events.close();
  void Promise.all([closing, ...inFlight])
    .then(
      () => post({ type: 'closed', id: message.id }),
      (error: unknown) => post({ type: 'closed', id: message.id, error: carry(error) }),
    )
    .finally(() => {
      commits.close();
      port.close();
    });
});
