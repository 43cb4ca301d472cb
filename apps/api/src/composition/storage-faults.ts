import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { STORAGE_FAULT_REASONS, storageFaultOf, type StorageFault } from '@app/event-sourcing';
import { APP_CONFIG, type AppConfig, type ProcessMetrics } from '@app/runtime/process';
import { LOGGER, METRICS } from './tokens';

/** `Retry-After` of a 503 for a storage fault, in seconds: an operator has to free or repair the disk. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

/** The 503's message for a storage fault: what a provider's developer needs, naming no internals. */
export const STORAGE_FAULT_MESSAGE = 'The service cannot store changes at the moment; please try again later';

/** A fault of one kind is logged again at most this often while it repeats, in ms. */
const LOG_INTERVAL_MS = 60_000;
/** While a fault holds, `/readyz` probes the data directory at most this often, in ms. */
const PROBE_INTERVAL_MS = 5_000;
/** What the probe writes (and syncs, and removes) in the data directory, in bytes. */
const PROBE_BYTES = 64 * 1024;

/**
 * The storage faults of this API process (docs/operations.md "When the disk fills"): a write that
 * failed because the data directory is full, read-only or cannot be written (`storageFaultOf`).
 * Each is counted (`trainee_records_storage_faults_total{kind}`) and logged at error on its kind's
 * first occurrence and at most once a minute after (with how many came between), and keeps
 * `/readyz` not ready with the fault's sentence until the data directory takes a write again: a
 * write the API answered 2xx, or a probe that `/readyz` runs at most every 5 s meanwhile (a 64 KiB
 * file written, synced and removed in DATA_DIR), since an instance taken out of rotation gets no
 * writes to tell it.
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

  /**
   * The storage fault `error` stands for, noted (counted, logged as above, `/readyz` not ready);
   * null, and nothing noted, for any other error.
   */
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

  /** A write was stored: a fault noted is over. */
  writeSucceeded(): void {
    if (this.current) this.cleared('a write was stored');
  }

  /**
   * What `/readyz` says of the storage: the current fault's sentence, or nothing. While a fault
   * holds, probes the data directory first (at most every 5 s) and forgets the fault when it can write.
   */
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
