/**
 * Each caller gets a send that started at or after its call: at most one in flight and one queued, whatever the callers; a failed
 * send rejects only the callers it served. So no read follows a registry already stale when it began, and one read serves many.
 */
export class FreshReads<T> {
  private inFlight: Promise<T> | null = null;
  private queued: Promise<T> | null = null;

  constructor(private readonly send: () => Promise<T>) {}

  /** A send that starts now, or as soon as the one in flight has settled. */
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

export interface RegistryFollower<R, T> {
  /** The newest this process holds, or null. */
  known: R | null;
  /** Sent now or later ({@link FreshReads.get}). */
  fresh: () => Promise<R>;
  storeOf: (registry: R) => string;
  run: (registry: R) => Promise<T>;
  /** An answer a dropped store would also give (nothing found). */
  isEmpty: (result: T) => boolean;
  isGone: (error: unknown) => boolean;
}

/**
 * Never answers from a store that had stopped serving before the read began (docs/DESIGN.md "What the MongoDB read model
 * guarantees"). Runs on the `known` registry's store beside a fresh registry read: another store means a swap, so it runs again there;
 * a non-empty answer from the same store stands (it served after the read began, and keeps its documents until dropped, never served
 * twice); nothing found or the store gone: the registry is read once more, and the read runs again if that names another store.
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
