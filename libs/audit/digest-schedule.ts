import { PeriodicRun } from '@app/event-sourcing';
import type { SignedDigest } from './digest';
import { LogDoesNotVerify } from './digest-log';

/** What one scheduled run signed: the digest and the position it was recorded at. */
export interface ScheduledDigest {
  digest: SignedDigest;
  recordedAt: number;
}

/** Where the schedule says what it did (pino-style: context, then message). No personal data: positions, counts, times. */
export interface DigestScheduleLogger {
  info(context: object, message: string): void;
  warn(context: object, message: string): void;
  error(context: object, message: string): void;
}

/**
 * Signs a digest every `everyMs` (`AUDIT_DIGEST_EVERY`; docs/DESIGN.md "Scheduled digests"):
 * `run` makes one (`digestSince`, on a thread of its own on the embedded store) and answers null
 * when the log has not moved since the last. One run at a time; the next is timed from the end of
 * the last, so a slow run never stacks; the timer does not keep the process alive. A run that
 * fails is logged (a log that does not verify as an error: nothing is signed until `audit verify`
 * is run and the cause mended) and the schedule goes on.
 */
export class DigestSchedule {
  private readonly timer: PeriodicRun;
  /** Runs that signed a digest, and runs that found the log idle, since start (for tests and metrics). */
  readonly counts = { signed: 0, idle: 0, failed: 0 };

  constructor(
    private readonly run: () => Promise<ScheduledDigest | null>,
    private readonly everyMs: number,
    private readonly logger: DigestScheduleLogger,
  ) {
    this.timer = new PeriodicRun(
      () => this.once(),
      () => this.everyMs,
    );
  }

  /** Starts the schedule: the first run after one period. */
  start(): void {
    if (this.timer.start()) this.logger.info({ every_ms: this.everyMs }, 'audit digests scheduled');
  }

  /** Stops the schedule and waits for a run in progress to end. */
  stop(): Promise<void> {
    return this.timer.stop();
  }

  /** Runs once now (when none is running), then goes on with the schedule; resolves when this run ends. */
  runNow(): Promise<void> {
    return this.timer.runNow();
  }

  private async once(): Promise<void> {
    const started = performance.now();
    try {
      const signed = await this.run();
      const seconds = Number(((performance.now() - started) / 1000).toFixed(3));
      if (signed === null) {
        this.counts.idle++;
        return;
      }
      this.counts.signed++;
      const { position, streams, root } = signed.digest;
      this.logger.info({ position, streams, root, recorded_at: signed.recordedAt, seconds }, 'audit digest signed');
    } catch (err) {
      this.counts.failed++;
      if (err instanceof LogDoesNotVerify)
        this.logger.error({ faults: err.faults }, 'audit digest not signed: the log does not verify (run admin audit verify)');
      else this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'audit digest failed; the schedule goes on');
    }
  }
}
