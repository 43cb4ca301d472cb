import { streamHeadOf } from './hash-chain';
import {
  WrongExpectedVersionError,
  type EventData,
  type EventStore,
  type LogPosition,
  type RecordedEvent,
  type StreamHead,
} from './event-store.port';

/** A state and the head of the stream it reflects. */
export interface StreamSnapshot<S> {
  state: S;
  /** The stream's head at the last event folded into `state` (its 0-based revision, and the link the next append chains to). */
  head: StreamHead;
}

/** How to rebuild an aggregate from its stream and decide a command on it. */
export interface CommandRunnerSpec<S, E> {
  initialState: S;
  evolve(state: S, event: E): S;
  /**
   * Folds many events at once (default: `evolve` one by one), so a fold may copy its state once
   * instead of once per event. Must not change `from`.
   */
  evolveAll?(events: E[], from: S): S;
  /**
   * Where to start instead of the stream's first event (docs/DESIGN.md "Bounded cost per trainee"):
   * only the events after `revision` are read. Null or absent: the whole stream is replayed.
   */
  snapshot?: StreamSnapshot<S> | null;
  /** The domain event of a stored one, or null to ignore it. */
  decode(recorded: RecordedEvent): E | null;
  /** The events the command produces on `state` (throws a domain error to refuse). */
  decide(state: S): E[];
  /** Envelopes for the new events (ids, metadata). */
  encode(events: E[]): EventData[];
  /** Retries after a concurrent write to the same stream; default 5. */
  maxRetries?: number;
}

export interface CommandOutcome<S, E> {
  /** The state after the new events. */
  state: S;
  /** The events appended (empty when the command changed nothing). */
  events: E[];
  /** Global position of the last event appended, or null when nothing was appended. */
  position: LogPosition | null;
}

/**
 * Loads `streamId` (from the spec's snapshot when it has one), decides, and appends with the
 * revision read as the expected revision (optimistic concurrency). On
 * {@link WrongExpectedVersionError} it reads again and decides again, up to `maxRetries` times, then
 * rethrows: no update is silently lost (docs/DESIGN.md property 2). A snapshot ahead of the stream
 * (a read store not reset with its event store) is dropped on the first conflict and the stream
 * replayed whole.
 */
export async function runCommand<S, E>(store: EventStore, streamId: string, spec: CommandRunnerSpec<S, E>): Promise<CommandOutcome<S, E>> {
  const maxRetries = spec.maxRetries ?? 5;
  const fold = spec.evolveAll ?? ((events: E[], from: S) => events.reduce(spec.evolve, from));
  let snapshot = spec.snapshot ?? null;
  for (let attempt = 0; ; attempt++) {
    const recorded = await store.readStream(streamId, snapshot ? { fromRevision: snapshot.head.revision + 1 } : undefined);
    const decoded: E[] = [];
    for (const r of recorded) {
      const e = spec.decode(r);
      if (e !== null) decoded.push(e);
    }
    const state = fold(decoded, snapshot ? snapshot.state : spec.initialState);
    const events = spec.decide(state);
    if (events.length === 0) return { state, events, position: null };
    // The head read is handed back: a store that chains without reading chains to it (docs/DESIGN.md "Verifiable history").
    const head = recorded.length > 0 ? streamHeadOf(recorded[recorded.length - 1]) : (snapshot?.head ?? null);
    try {
      const result = await store.appendToStream(streamId, spec.encode(events), { expectedRevision: head ?? 'no_stream' });
      return { state: fold(events, state), events, position: result.position };
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError) || attempt >= maxRetries) throw err;
      if (snapshot && (err.actual === 'no_stream' || err.actual < snapshot.head.revision)) snapshot = null;
    }
  }
}
