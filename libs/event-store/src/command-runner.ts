import {
  WrongExpectedVersionError,
  type EventData,
  type EventStore,
  type RecordedEvent,
} from './event-store.port';

/** How to rebuild an aggregate from its stream and decide a command on it. */
export interface CommandRunnerSpec<S, E> {
  initialState: S;
  evolve(state: S, event: E): S;
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
  position: number | null;
}

/**
 * Loads `streamId`, decides, and appends with the revision read as the expected revision
 * (optimistic concurrency). On {@link WrongExpectedVersionError} it reloads and decides again, up
 * to `maxRetries` times, then rethrows: no update is silently lost (docs/DESIGN.md property 2).
 */
export async function runCommand<S, E>(
  store: EventStore,
  streamId: string,
  spec: CommandRunnerSpec<S, E>,
): Promise<CommandOutcome<S, E>> {
  const maxRetries = spec.maxRetries ?? 5;
  for (let attempt = 0; ; attempt++) {
    const recorded = await store.readStream(streamId);
    let state = spec.initialState;
    for (const r of recorded) {
      const e = spec.decode(r);
      if (e !== null) state = spec.evolve(state, e);
    }
    const events = spec.decide(state);
    if (events.length === 0) return { state, events, position: null };
    const expectedRevision = recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1].streamRevision;
    try {
      const result = await store.appendToStream(streamId, spec.encode(events), { expectedRevision });
      for (const e of events) state = spec.evolve(state, e);
      return { state, events, position: result.position };
    } catch (err) {
      if (err instanceof WrongExpectedVersionError && attempt < maxRetries) continue;
      throw err;
    }
  }
}
