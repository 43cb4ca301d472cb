/**
 * Reads that are sent after their caller asked (docs/DESIGN.md "What the MongoDB read model
 * guarantees"): the MongoDB read model checks the projection registry on every read, so that no
 * read follows a registry that was already stale when the read began, and shares each registry read
 * among the callers it can serve.
 */

/**
 * Coalesces calls of an asynchronous `send` so that each caller gets the result of a send that
 * started at or after its call: a call with no send in flight starts one; calls made while one is
 * in flight all wait for the next one, which starts when the one in flight settles. At most one
 * send is in flight and one is queued, whatever the number of callers. A failed send rejects the
 * callers it served (never later ones).
 */
export class FreshReads<T> {
  private inFlight: Promise<T> | null = null;
  private queued: Promise<T> | null = null;

  /** Takes the read to share. */
  constructor(private readonly send: () => Promise<T>) {}

  /** The result of a send that starts now, or as soon as the one in flight has settled. */
  get(): Promise<T> {
    if (this.inFlight === null) return this.start();
    if (this.queued === null) {
      const settled = this.inFlight.then(
        () => undefined,
        () => undefined,
      );
      this.queued = settled.then(() => {
        this.queued = null;
        return this.start();
      });
    }
    return this.queued;
  }

  private start(): Promise<T> {
    const sent = Promise.resolve()
      .then(this.send)
      .finally(() => {
        if (this.inFlight === sent) this.inFlight = null;
      });
    this.inFlight = sent;
    return sent;
  }
}

/** What {@link readFollowingRegistry} needs: the registries it may use and the read to run. */
export interface RegistryFollower<R, T> {
  /** The newest registry this process holds, or null when it has none yet. */
  known: R | null;
  /** A registry read sent now or later ({@link FreshReads.get}). */
  fresh: () => Promise<R>;
  /** The store a registry says serves the read's projection. */
  storeOf: (registry: R) => string;
  /** The read, on the store `registry` names. */
  run: (registry: R) => Promise<T>;
  /** True for an answer that a dropped store would also give (nothing found). */
  isEmpty: (result: T) => boolean;
  /** True for the error of a read whose store was dropped under it. */
  isGone: (error: unknown) => boolean;
}

/**
 * Runs a read so that it never answers from a store that had stopped serving before the read
 * began (docs/DESIGN.md "What the MongoDB read model guarantees").
 *
 * The read runs on the store of the `known` registry while, side by side, a `fresh` registry read
 * says which store serves. Another store: a swap happened, and the read runs again there. The same
 * store and a non-empty answer: it stands, because that store served when the fresh registry was
 * read (after the read began) and a store swapped out keeps its documents until it is dropped, and
 * stores are never served twice. The same store but nothing found, or the store gone: the store may
 * have been swapped out and dropped in between, so the registry is read once more (sent after the
 * read ended) and the read runs again if that names another store. Throws the read's error (the
 * store unchanged) or a registry read's.
 */
export async function readFollowingRegistry<R, T>(f: RegistryFollower<R, T>): Promise<T> {
  const used = f.known ?? (await f.fresh());
  const [outcome, latest] = await Promise.all([
    f.run(used).then(
      (value): { value: T } | { error: unknown } => ({ value }),
      (error: unknown) => ({ error }),
    ),
    f.fresh(),
  ]);
  if (f.storeOf(latest) !== f.storeOf(used)) return f.run(latest);
  if ('value' in outcome && !f.isEmpty(outcome.value)) return outcome.value;
  if ('error' in outcome && !f.isGone(outcome.error)) throw outcome.error;
  const after = await f.fresh();
  if (f.storeOf(after) !== f.storeOf(used)) return f.run(after);
  if ('error' in outcome) throw outcome.error;
  return outcome.value;
}
