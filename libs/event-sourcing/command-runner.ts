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
  head: StreamHead;
}

export interface CommandRunnerSpec<S, E> {
  initialState: S;
  evolve(state: S, event: E): S;
  /** Folds many events at once (default: `evolve` one by one), so a fold may copy its state once; must not change `from`. */
  evolveAll?(events: E[], from: S): S;
  /** Where to start instead of the stream's first event (docs/DESIGN.md "Bounded cost per trainee"); null or absent: replay it all. */
  snapshot?: StreamSnapshot<S> | null;
  decode(recorded: RecordedEvent): E | null;
  decide(state: S): E[];
  encode(events: E[]): EventData[];
  /** Retries after a concurrent write to the same stream; default 5. */
  maxRetries?: number;
}

export interface CommandOutcome<S, E> {
  state: S;
  /** Empty when the command changed nothing. */
  events: E[];
  /** Of the last event appended; null when none was. */
  position: LogPosition | null;
}

/**
 * Reads `streamId` from the snapshot on, decides, appends expecting the revision read; on {@link WrongExpectedVersionError} tries again
 * up to `maxRetries` times, then rethrows (docs/DESIGN.md property 2). A snapshot ahead of the stream is dropped on the first conflict.
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
    // A store that chains without reading chains to the head handed back (docs/DESIGN.md "Verifiable history").
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
