/**
 * Work run one at a time, each run timed from the end of the last, on an unref'd timer: scheduled digests and backups. `delayMs` is
 * asked at start and after each run; `run` must not throw (it logs its own failures).
 */
export class PeriodicRun {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly delayMs: () => number,
  ) {}

  /** The first run after `delayMs()`; false when already started. */
  start(): boolean {
    if (!this.stopped) return false;
    this.stopped = false;
    this.arm();
    return true;
  }

  /** Waits for a run in progress to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Joins the run in progress if any, then goes on with the timer. */
  async runNow(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.run().finally(() => {
      this.running = null;
      this.arm();
    });
    return this.running;
  }

  private arm(): void {
    if (this.stopped || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.runNow(), this.delayMs());
    this.timer.unref();
  }
}
