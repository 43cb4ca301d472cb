import type { LogPosition, StoredLog } from '@app/event-sourcing';

export const BACKLOG_READ_PER_SCRAPE = 10_000;
export const BACKLOG_PAGE = 1_000;

/**
 * The registry process manager's backlog gauge (docs/observability.md "Readings taken at scrape time"), counted incrementally up to
 * `cap`: each scrape reads on from where the last stopped, unfiltered, as EventStoreDB filters a read of `$all` only on the client, so a
 * filtered read would send the whole tail each time. A lower bound until a scan reaches the head.
 */
export class RegistryBacklog {
  /** The last event read, or the checkpoint it started from. */
  private scanned: LogPosition | null = null;
  /** Matching events after the checkpoint, in order; at most cap + 1. */
  private pending: LogPosition[] = [];
  /** Matching events were passed unkept. */
  private truncated = false;

  constructor(
    private readonly log: StoredLog,
    private readonly eventTypes: readonly string[],
    private readonly cap: number,
  ) {}

  /** Up to the cap; throws what the log's reads throw (the next scrape goes on from there). */
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
