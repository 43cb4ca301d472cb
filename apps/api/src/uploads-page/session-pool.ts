/** Entries grouped by owner, bounded per owner and in all; maps keep insertion order, so each first entry is the oldest. */
export class SessionPool<T> {
  private readonly entries = new Map<string, { owner: string; value: T }>();
  private readonly owners = new Map<string, Map<string, T>>();

  /**
   * @param perOwner one more ends the owner's oldest.
   * @param max one more ends an expired entry, else the oldest of the owner holding the most.
   */
  constructor(
    private readonly perOwner: number,
    private readonly max: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  /**
   * An owner at its bound loses its own oldest; at the bound in all, an expired entry, else the largest owner's oldest (ties: the
   * newcomer's).
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

  /** Whether one was held. */
  delete(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    const own = this.owners.get(entry.owner)!;
    own.delete(id);
    if (own.size === 0) this.owners.delete(entry.owner);
    return true;
  }

  /** How many. */
  sweep(expired: (value: T) => boolean): number {
    let ended = 0;
    for (const [id, { value }] of this.entries) if (expired(value) && this.delete(id)) ended++;
    return ended;
  }

  /** `preferred` on a tie. */
  private oldestOfLargest(preferred: string): string {
    let largest = this.owners.get(preferred);
    for (const own of this.owners.values()) if (!largest || own.size > largest.size) largest = own;
    return largest!.keys().next().value!;
  }
}
