import type { LogPosition, RecordedEvent } from './event-store.port';

/**
 * What every projected document carries: the stream revision of the last event applied to it
 * (docs/DESIGN.md "Read models": "a document records the last stream revision applied and ignores
 * events at or below it").
 */
export interface Revisioned {
  revision: number;
}

/**
 * A projection as pure functions (docs/STYLE.md "Projections as pure functions"): which recorded
 * events it reads, which document each one changes, and what the event makes of that document.
 * It knows nothing of a database; an adapter loads the documents a batch names, folds the batch
 * with {@link foldBatch} and stores what comes out.
 */
export interface Projection<E, D extends Revisioned> {
  /** The domain event (upcast to the current schema) a recorded event holds, or null when this projection ignores it. */
  decode(recorded: RecordedEvent): E | null;
  /** The key of the document `event` changes (the id as the event carries it). */
  keyOf(event: E): string;
  /**
   * The document after `event`, recorded as `recorded`, which is above the document's revision
   * (the guard is {@link applyEvent}'s). Returns `doc` itself when the event leaves no document.
   */
  evolve(doc: D | null, event: E, recorded: RecordedEvent): D | null;
}

/**
 * Applies one decoded event to a document with the revision guard: an event at or below the
 * document's revision is skipped (`doc` is returned as it is), so redelivery is harmless
 * (docs/DESIGN.md "Read models" and "Other properties").
 */
export function applyEvent<E, D extends Revisioned>(
  projection: Projection<E, D>,
  doc: D | null,
  event: E,
  recorded: RecordedEvent,
): D | null {
  if (doc !== null && recorded.streamRevision <= doc.revision) return doc;
  return projection.evolve(doc, event, recorded);
}

/**
 * Applies one recorded event to a document: `(document | null, event) → document`. Events the
 * projection does not read, and events at or below the document's revision, leave `doc` as it is.
 */
export function project<E, D extends Revisioned>(projection: Projection<E, D>, doc: D | null, recorded: RecordedEvent): D | null {
  const event = projection.decode(recorded);
  return event === null ? doc : applyEvent(projection, doc, event, recorded);
}

/** One event of a batch that a projection reads, decoded once. */
export interface DecodedEvent<E> {
  recorded: RecordedEvent;
  event: E;
  /** The key of the document it changes. */
  key: string;
}

/** The events of a batch a projection reads, in position order, and the keys of the documents they change. */
export interface DecodedBatch<E> {
  events: DecodedEvent<E>[];
  /** Distinct keys, in order of first appearance: the documents to load before folding. */
  keys: string[];
}

/** A document a batch changed: as loaded (null when there was none) and after the batch. */
export interface DocumentChange<D> {
  key: string;
  before: D | null;
  after: D;
}

/** Decodes a batch for `projection`: the events it reads and the keys of the documents they change. */
export function decodeBatch<E, D extends Revisioned>(projection: Projection<E, D>, events: readonly RecordedEvent[]): DecodedBatch<E> {
  const decoded: DecodedEvent<E>[] = [];
  const keys = new Set<string>();
  for (const recorded of events) {
    const event = projection.decode(recorded);
    if (event === null) continue;
    const key = projection.keyOf(event);
    keys.add(key);
    decoded.push({ recorded, event, key });
  }
  return { events: decoded, keys: [...keys] };
}

/**
 * Called by {@link foldBatch} for each event that changed a document: the event and the document
 * before and after it (the change feed is made from these, docs/change-feed.md).
 */
export type OnApplied<E, D> = (event: DecodedEvent<E>, before: D | null, after: D) => void;

/**
 * Folds a decoded batch, in order, into the documents it changes, starting from the stored ones
 * (`stored`, by key; a key missing from it has no document yet). Returns one change per document
 * the batch changed, in order of the key's first event; documents every event of which was
 * skipped (revision guard) or that no event created are left out. `onApplied` sees each event
 * that changed a document, in order.
 */
export function foldBatch<E, D extends Revisioned>(
  projection: Projection<E, D>,
  batch: DecodedBatch<E>,
  stored: ReadonlyMap<string, D>,
  onApplied?: OnApplied<E, D>,
): DocumentChange<D>[] {
  const docs = new Map<string, { before: D | null; after: D | null }>();
  for (const decoded of batch.events) {
    const { recorded, event, key } = decoded;
    let entry = docs.get(key);
    if (!entry) {
      const before = stored.get(key) ?? null;
      docs.set(key, (entry = { before, after: before }));
    }
    const previous = entry.after;
    entry.after = applyEvent(projection, previous, event, recorded);
    if (onApplied && entry.after !== null && entry.after !== previous) onApplied(decoded, previous, entry.after);
  }
  const changes: DocumentChange<D>[] = [];
  for (const [key, { before, after }] of docs) if (after !== null && after !== before) changes.push({ key, before, after });
  return changes;
}

/**
 * Read-your-writes (docs/DESIGN.md property 1): a writer waits until the projections have applied
 * every event up to its events' global `position`. Resolves true once they have, false after
 * `timeoutMs` (the implementation's default when left out); never rejects for a time-out (the
 * write itself is durable either way).
 */
export interface ProjectionWaiter {
  waitFor(position: LogPosition, timeoutMs?: number): Promise<boolean>;
}
