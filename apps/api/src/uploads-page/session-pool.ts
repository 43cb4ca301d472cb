/**
 * Entries of one kind grouped by owner, bounded per owner and in all, for the uploads page's
 * sessions (page-sessions.ts). Maps keep insertion order, so the first entry of the pool and of
 * each owner is the oldest.
 */
export class SessionPool<T> {
  private readonly entries = new Map<string, { owner: string; value: T }>();
  private readonly owners = new Map<string, Map<string, T>>();

  /**
   * @param perOwner the most entries one owner holds: one more ends the owner's oldest.
   * @param max the most entries in all: one more ends an expired entry, else the oldest of the owner holding the most.
   */
  constructor(
    private readonly perOwner: number,
    private readonly max: number,
  ) {}

  /** The entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** The entry of `id`, if held. */
  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  /**
   * Holds `value` under `id` for `owner`. An owner at its bound loses its own oldest entry, never
   * another's. At the bound in all, the expired entries go first (`expired`); when none is, the
   * owner holding the most loses its oldest: the newcomer's owner when it holds as many.
   */
  add(id: string, owner: string, value: T, expired: (value: T) => boolean): void {
    const own = this.owners.get(owner);
    if (own && own.size >= this.perOwner) {
      this.delete(own.keys().next().value!);
    } else if (this.entries.size >= this.max && this.sweep(expired) === 0) {
      this.delete(this.oldestOfLargest(owner));
    }
    this.entries.set(id, { owner, value });
    if (own) own.set(id, value);
    else this.owners.set(owner, new Map([[id, value]]));
  }

  /** Ends the entry of `id`; whether one was held. */
  delete(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    const own = this.owners.get(entry.owner)!;
    own.delete(id);
    if (own.size === 0) this.owners.delete(entry.owner);
    return true;
  }

  /** Ends every entry `expired` says has; how many. */
  sweep(expired: (value: T) => boolean): number {
    let ended = 0;
    for (const [id, { value }] of this.entries) if (expired(value) && this.delete(id)) ended++;
    return ended;
  }

  /** The id of the oldest entry of the owner holding the most (`preferred` on a tie). */
  private oldestOfLargest(preferred: string): string {
    let largest = this.owners.get(preferred);
    for (const own of this.owners.values()) if (!largest || own.size > largest.size) largest = own;
    return largest!.keys().next().value!;
  }
}
