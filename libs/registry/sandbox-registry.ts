import { createHash } from 'node:crypto';
import type { AwardRequest, RegistryCallContext, TeacherRegistry, TrnRequest } from './registry.port';

/** One minute, as the real registry integration first polls for a TRN a minute after submission (API-FACTS §12.1). */
export const SANDBOX_REGISTRY_DEFAULT_DELAY_MS = 60_000;

/** A timer's longest wait: 2^31 − 1 ms. */
export const SANDBOX_REGISTRY_MAX_DELAY_MS = 2_147_483_647;

export interface SandboxRegistryOptions {
  /** From the request's `requestedAt`; default 60 000; 0: at once. */
  trnDelayMs?: number;
  /** From the request's `requestedAt`; default 60 000; 0: at once. */
  awardDelayMs?: number;
  clock?: () => Date;
  /** Rejects at once when `signal` aborts, or has. Tests inject a virtual clock's. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The sandbox's registry (`APP_ENV=sandbox`), as a provider sees the real one (API-FACTS §12.1, §12.5): a TRN `trnDelayMs` after the
 * submission, an award at midnight UTC of the outcome date `awardDelayMs` after the recommendation. Delays count from `requestedAt`
 * (else the call), so waits do not add up and an overdue request answers at once. The TRN is derived from the trainee id.
 * RangeError for a delay that is not an integer from 0 to {@link SANDBOX_REGISTRY_MAX_DELAY_MS}.
 */
export class SandboxRegistry implements TeacherRegistry {
  private readonly trnDelayMs: number;
  private readonly awardDelayMs: number;
  private readonly clock: () => Date;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(options: SandboxRegistryOptions = {}) {
    this.trnDelayMs = checkedDelay('trnDelayMs', options.trnDelayMs ?? SANDBOX_REGISTRY_DEFAULT_DELAY_MS);
    this.awardDelayMs = checkedDelay('awardDelayMs', options.awardDelayMs ?? SANDBOX_REGISTRY_DEFAULT_DELAY_MS);
    this.clock = options.clock ?? (() => new Date());
    this.sleep = options.sleep ?? delay;
  }

  /** Rejects when `signal` aborts first. */
  async requestTrn(request: TrnRequest, signal?: AbortSignal, context?: RegistryCallContext): Promise<{ trn: string }> {
    await this.sleep(this.waitMs(context?.requestedAt, this.trnDelayMs), signal);
    return { trn: sandboxTrn(request.trainee_id) };
  }

  /** The award's instant is midnight UTC of the outcome date; rejects when `signal` aborts first. */
  async recommendForAward(request: AwardRequest, signal?: AbortSignal, context?: RegistryCallContext): Promise<{ awarded_at: string }> {
    await this.sleep(this.waitMs(context?.requestedAt, this.awardDelayMs), signal);
    return { awarded_at: `${request.outcome_date}T00:00:00.000Z` };
  }

  private waitMs(requestedAt: string | undefined, delayMs: number): number {
    return sandboxWaitMs(requestedAt, delayMs, this.clock());
  }
}

/** `requestedAt + delayMs`; RangeError when `requestedAt` is not an ISO 8601 instant. */
export function sandboxDueAt(requestedAt: string, delayMs: number): Date {
  const at = Date.parse(requestedAt);
  if (Number.isNaN(at)) throw new RangeError(`not an ISO 8601 instant: '${requestedAt}'`);
  return new Date(at + delayMs);
}

/** Ms left to {@link sandboxDueAt}, within 0..`delayMs`; a missing, unparsable or future `requestedAt` counts as now. */
export function sandboxWaitMs(requestedAt: string | undefined, delayMs: number, now: Date): number {
  if (delayMs <= 0) return 0;
  if (requestedAt === undefined || Number.isNaN(Date.parse(requestedAt))) return delayMs;
  const left = sandboxDueAt(requestedAt, delayMs).getTime() - now.getTime();
  return Math.min(delayMs, Math.max(0, left));
}

/** 7 digits, derived from the trainee id; first digit 1–9. */
export function sandboxTrn(traineeId: string): string {
  const n = createHash('sha256').update(traineeId).digest().readUInt32BE(0);
  return String(1_000_000 + (n % 9_000_000));
}

function checkedDelay(name: string, ms: number): number {
  if (!Number.isInteger(ms) || ms < 0 || ms > SANDBOX_REGISTRY_MAX_DELAY_MS) {
    throw new RangeError(`SandboxRegistry ${name} must be an integer from 0 to ${SANDBOX_REGISTRY_MAX_DELAY_MS} ms, got ${ms}`);
  }
  return ms;
}

/** Rejects at once when `signal` aborts, or has (even for 0 ms). */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new Error('aborted'));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
