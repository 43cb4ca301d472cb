import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { STORAGE_FAULT_REASONS, storageFaultOf, type StorageFault } from '@app/event-sourcing';
import { APP_CONFIG, type AppConfig, type ProcessMetrics } from '@app/runtime/process';
import { LOGGER, METRICS } from './tokens';

/** An operator has to free or repair the disk. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

/** What a provider's developer needs, naming no internals. */
export const STORAGE_FAULT_MESSAGE = 'The service cannot store changes at the moment; please try again later';

/** While it repeats. */
const LOG_INTERVAL_MS = 60_000;
/** While a fault holds. */
const PROBE_INTERVAL_MS = 5_000;
/** Written, synced and removed in the data directory. */
const PROBE_BYTES = 64 * 1024;

/**
 * This API process's storage faults (docs/operations.md "When the disk fills"): counted, logged at most once a minute per kind, and
 * holding `/readyz` not ready until the data directory takes a write again, a 2xx write or `/readyz`'s own probe, as an instance taken
 * out of rotation gets no writes to tell it.
 */
@Injectable()
export class StorageFaults {
  private current: StorageFault | null = null;
  private readonly logged = new Map<StorageFault, { at: number; since: number }>();
  private probe: Promise<void> | null = null;
  private probedAt = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'dataDir'>,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS) private readonly metrics: ProcessMetrics | null,
  ) {}

  /** Noted (counted, logged, `/readyz` not ready); null, and nothing noted, for an error that is no storage fault. */
  noted(error: unknown): StorageFault | null {
    const fault = storageFaultOf(error);
    if (!fault) return null;
    this.current = fault;
    this.metrics?.metrics.counter('trainee_records_storage_faults_total').inc({ kind: fault.replace('-', '_') });
    const now = Date.now();
    const last = this.logged.get(fault);
    if (last && now - last.at < LOG_INTERVAL_MS) {
      last.since++;
      return fault;
    }
    this.logged.set(fault, { at: now, since: 0 });
    const { code, message } = error as { code?: string; message?: string };
    this.logger.error(
      { fault, code, error: message, repeated: last?.since ?? 0 },
      `a write failed: ${STORAGE_FAULT_REASONS[fault]}; answering 503 until it can write again`,
    );
    return fault;
  }

  /** A fault noted is over. */
  writeSucceeded(): void {
    if (this.current) this.cleared('a write was stored');
  }

  /** The current fault's sentence, or nothing; while one holds, probes the data directory first and forgets the fault if it can write. */
  async reasons(): Promise<string[]> {
    if (this.current && Date.now() - this.probedAt >= PROBE_INTERVAL_MS) {
      this.probe ??= this.probeDataDir().finally(() => (this.probe = null));
      await this.probe;
    }
    return this.current ? [STORAGE_FAULT_REASONS[this.current]] : [];
  }

  private async probeDataDir(): Promise<void> {
    this.probedAt = Date.now();
    const file = join(this.config.dataDir, `.write-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await writeFile(file, Buffer.alloc(PROBE_BYTES), { flag: 'wx', flush: true });
      this.cleared('a probe wrote to the data directory');
    } catch {
      // Still failing: the fault stands.
    } finally {
      await rm(file, { force: true }).catch(() => undefined);
    }
  }

  private cleared(how: string): void {
    this.logger.warn({ fault: this.current }, `the data directory takes writes again (${how}); ready as far as storage goes`);
    this.current = null;
    this.logged.clear();
  }
}
