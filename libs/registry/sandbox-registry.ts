import { createHash } from 'node:crypto';
import type { AwardRequest, RegistryCallContext, TeacherRegistry, TrnRequest } from './registry.port';

/**
 * How long the sandbox registry takes by default, in ms, both to issue a TRN after a trainee's
 * submission and to award after a recommendation: one minute, as the real registry integration
 * first polls for a TRN one minute after submission (docs/reference/API-FACTS.md §12.1).
 */
export const SANDBOX_REGISTRY_DEFAULT_DELAY_MS = 60_000;

/** The longest delay a timer can wait in one go (2^31 − 1 ms, about 24.8 days). */
export const SANDBOX_REGISTRY_MAX_DELAY_MS = 2_147_483_647;

export interface SandboxRegistryOptions {
  /** ms from a trainee's submission (the request's `requestedAt`) to its TRN; default 60 000; 0: at once. */
  trnDelayMs?: number;
  /** ms from a recommendation (the request's `requestedAt`) to the award; default 60 000; 0: at once. */
  awardDelayMs?: number;
  /** The current instant; default the system clock. Tests inject a virtual one. */
  clock?: () => Date;
  /**
   * Waits `ms` and resolves; rejects at once when `signal` aborts (also when it has already
   * aborted). Default: a timer. Tests inject one that advances a virtual clock instead.
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The registry of the sandbox (default with `APP_ENV=sandbox`), behaving like the real one as a
 * provider sees it: it issues a TRN `trnDelayMs` after the trainee's submission (so a trainee reads
 * `submitted_for_trn` with `trn: null` until then, docs/reference/API-FACTS.md §12.1) and awards a
 * recommended trainee `awardDelayMs` after the recommendation, at midnight UTC of the outcome date
 * (§12.5). Both delays default to one minute ({@link SANDBOX_REGISTRY_DEFAULT_DELAY_MS}).
 *
 * A delay counts from the request's `requestedAt` (the time of the event that caused it), not
 * from the call: the answer is due at `requestedAt + delay` ({@link sandboxDueAt}), so requests
 * handled one after another each wait only until their own due time (their waits do not add up),
 * and a request whose due time has passed (after a restart, say) is answered at once. Without a
 * `requestedAt` the delay counts from the call. The wait is abandoned when the call's signal aborts.
 * The TRN is derived from the trainee id, so a repeated request gets the same TRN.
 *
 * Throws RangeError when a delay is not an integer from 0 to {@link SANDBOX_REGISTRY_MAX_DELAY_MS}.
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

  /** Resolves with the trainee's TRN once due (`requestedAt + trnDelayMs`); rejects when `signal` aborts first. */
  async requestTrn(request: TrnRequest, signal?: AbortSignal, context?: RegistryCallContext): Promise<{ trn: string }> {
    await this.sleep(this.waitMs(context?.requestedAt, this.trnDelayMs), signal);
    return { trn: sandboxTrn(request.trainee_id) };
  }

  /**
   * Resolves with the award's instant (midnight UTC of the outcome date) once due (`requestedAt + awardDelayMs`); rejects when `signal`
   * aborts first.
   */
  async recommendForAward(request: AwardRequest, signal?: AbortSignal, context?: RegistryCallContext): Promise<{ awarded_at: string }> {
    await this.sleep(this.waitMs(context?.requestedAt, this.awardDelayMs), signal);
    return { awarded_at: `${request.outcome_date}T00:00:00.000Z` };
  }

  private waitMs(requestedAt: string | undefined, delayMs: number): number {
    return sandboxWaitMs(requestedAt, delayMs, this.clock());
  }
}

/**
 * The instant the sandbox registry answers a request that arose at `requestedAt` (an ISO 8601
 * instant with its offset, e.g. an event's `occurredAt`), given its delay in ms: `requestedAt + delayMs`.
 * Throws RangeError when `requestedAt` is not a valid instant.
 */
export function sandboxDueAt(requestedAt: string, delayMs: number): Date {
  const at = Date.parse(requestedAt);
  if (Number.isNaN(at)) throw new RangeError(`not an ISO 8601 instant: '${requestedAt}'`);
  return new Date(at + delayMs);
}

/**
 * How long, in ms, the sandbox registry still waits at `now` before answering a request that
 * arose at `requestedAt` with a delay of `delayMs`: the time left to {@link sandboxDueAt}, 0 when the
 * due time has passed, and never more than `delayMs` (a `requestedAt` ahead of this clock counts as
 * now). A missing or unparsable `requestedAt` also counts as now (the full `delayMs`).
 */
export function sandboxWaitMs(requestedAt: string | undefined, delayMs: number, now: Date): number {
  if (delayMs <= 0) return 0;
  if (requestedAt === undefined || Number.isNaN(Date.parse(requestedAt))) return delayMs;
  const left = sandboxDueAt(requestedAt, delayMs).getTime() - now.getTime();
  return Math.min(delayMs, Math.max(0, left));
}

/** A 7-digit TRN derived from the trainee id (first digit 1–9). */
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

/** Waits `ms` on a timer; rejects at once when `signal` aborts (also when it already has, even for 0 ms). */
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
