import type { LogPosition, RecordedEvent } from './event-store.port';

/** What every projected document carries: the stream revision of the last event applied (docs/DESIGN.md "Read models"). */
export interface Revisioned {
  revision: number;
}

/** A projection as pure functions (docs/STYLE.md): an adapter loads the documents a batch names, folds it, stores the result. */
export interface Projection<E, D extends Revisioned> {
  /** The event upcast to the current schema, or null when this projection ignores it. */
  decode(recorded: RecordedEvent): E | null;
  keyOf(event: E): string;
  /** The document after `event`, which is above its revision ({@link applyEvent} guards); `doc` itself when it leaves no document. */
  evolve(doc: D | null, event: E, recorded: RecordedEvent): D | null;
}

/** Applies `event` unless it is at or below the document's revision, so redelivery is harmless (docs/DESIGN.md "Read models"). */
export function applyEvent<E, D extends Revisioned>(
  projection: Projection<E, D>,
  doc: D | null,
  event: E,
  recorded: RecordedEvent,
): D | null {
  if (doc !== null && recorded.streamRevision <= doc.revision) return doc;
  return projection.evolve(doc, event, recorded);
}

/** `(document | null, event) → document`; events the projection does not read, or at or below the revision, leave `doc` as it is. */
export function project<E, D extends Revisioned>(projection: Projection<E, D>, doc: D | null, recorded: RecordedEvent): D | null {
  const event = projection.decode(recorded);
  return event === null ? doc : applyEvent(projection, doc, event, recorded);
}

export interface DecodedEvent<E> {
  recorded: RecordedEvent;
  event: E;
  key: string;
}

export interface DecodedBatch<E> {
  events: DecodedEvent<E>[];
  /** Distinct, in order of first appearance: the documents to load before folding. */
  keys: string[];
}

export interface DocumentChange<D> {
  key: string;
  before: D | null;
  after: D;
}

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

/** Sees each event that changed a document, with the document before and after it (the change feed: docs/change-feed.md). */
export type OnApplied<E, D> = (event: DecodedEvent<E>, before: D | null, after: D) => void;

/** Folds a batch into the `stored` documents (by key): one change per document changed, in order of its key's first event. */
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

/** Read-your-writes (docs/DESIGN.md property 1): false after `timeoutMs` (default: the implementation's), never a rejection. */
export interface ProjectionWaiter {
  waitFor(position: LogPosition, timeoutMs?: number): Promise<boolean>;
}
