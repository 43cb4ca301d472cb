import type { LogPosition, StoredLog } from '@app/event-sourcing';

/** Events of the log a {@link RegistryBacklog} reads at most per scrape, in pages of {@link BACKLOG_PAGE}. */
export const BACKLOG_READ_PER_SCRAPE = 10_000;
/** Events per read of the backlog's scan. */
export const BACKLOG_PAGE = 1_000;

/**
 * The registry process manager's backlog as its gauge counts it (docs/observability.md "Readings
 * taken at scrape time"): the events of `eventTypes` after the process manager's checkpoint, up to
 * `cap`. Counted incrementally: each scrape reads the log only from where the last one stopped, at
 * most {@link BACKLOG_READ_PER_SCRAPE} events, unfiltered, and keeps the positions of the matching
 * ones (at most `cap` + 1). A filtered read from the checkpoint would scan, on every scrape, the
 * whole log after the last registry event: on EventStoreDB, whose client filters a read of `$all`
 * only on the client (the server filter exists for subscriptions only), every record of that tail
 * goes over the wire each time. Until a scan has reached the head the count is a lower bound.
 * Positions are only compared, and every position it reads from is one the log gave (or the
 * process manager's checkpoint).
 */
export class RegistryBacklog {
  /** The position the scan has read up to: the last event read, or the checkpoint it started from. */
  private scanned: LogPosition | null = null;
  /** Positions of matching events after the checkpoint, in order (at most cap + 1). */
  private pending: LogPosition[] = [];
  /** Whether the scan passed matching events it did not keep (more than cap + 1). */
  private truncated = false;

  constructor(
    private readonly log: StoredLog,
    private readonly eventTypes: readonly string[],
    private readonly cap: number,
  ) {}

  /**
   * The count after `checkpoint` (the process manager's, a position of the log), up to the cap.
   * Throws what the log's reads throw (the scrape reports it; the next scrape goes on from where
   * this one got).
   */
  async count(checkpoint: LogPosition): Promise<number> {
    if (this.scanned === null || checkpoint > this.scanned) {
      this.scanned = checkpoint;
      this.pending = [];
      this.truncated = false;
    } else this.pending = this.pending.filter((p) => p > checkpoint);
    if (this.truncated && this.pending.length <= this.cap) {
      // Matching events after the last one kept were passed unkept: scan again from it.
      this.scanned = this.pending.length > 0 ? this.pending[this.pending.length - 1] : checkpoint;
      this.truncated = false;
    }
    if ((await this.log.headPosition()) <= this.scanned) return Math.min(this.pending.length, this.cap);
    const types = new Set(this.eventTypes);
    for (let read = 0; read < BACKLOG_READ_PER_SCRAPE; read += BACKLOG_PAGE) {
      const page = await this.log.readAll({ fromPosition: this.scanned, maxCount: BACKLOG_PAGE });
      for (const event of page) {
        if (!types.has(event.type)) continue;
        if (this.pending.length <= this.cap) this.pending.push(event.position);
        else this.truncated = true;
      }
      if (page.length > 0) this.scanned = page[page.length - 1].position;
      if (page.length < BACKLOG_PAGE) break;
    }
    return Math.min(this.pending.length, this.cap);
  }
}
