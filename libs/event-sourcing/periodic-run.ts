/**
 * A piece of work run again and again, each run timed from the end of the one before (so a slow
 * run never stacks), one at a time, on a timer that does not keep the process alive: the
 * schedules of signed digests and of backups (docs/DESIGN.md "Scheduled digests", docs/operations.md
 * "Backups and restore"). `delayMs` says, after each run and at start, how long until the next;
 * `run` must not throw (it logs its own failures).
 */
export class PeriodicRun {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly delayMs: () => number,
  ) {}

  /** Starts the timer (the first run after `delayMs()`); false when it was started already. */
  start(): boolean {
    if (!this.stopped) return false;
    this.stopped = false;
    this.arm();
    return true;
  }

  /** Stops the timer and waits for a run in progress to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs once now (or joins the run in progress), then goes on with the timer; resolves when this run ends. */
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
