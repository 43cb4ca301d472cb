import { createHash } from 'node:crypto';
import type { AwardRequest, TeacherRegistry, TrnRequest } from './registry.port';

/**
 * The registry of the sandbox (default with `APP_ENV=sandbox`): issues a TRN `trnDelayMs` after a
 * request (default at once; requests are answered one after another) and awards a recommended trainee `awardDelayMs` later, at midnight UTC
 * of the outcome date (docs/reference/API-FACTS.md §12.5). The TRN is derived from the trainee id, so a repeated
 * request gets the same TRN.
 */
export class SandboxRegistry implements TeacherRegistry {
  constructor(private readonly options: { trnDelayMs?: number; awardDelayMs?: number } = {}) {}

  async requestTrn(request: TrnRequest, signal?: AbortSignal): Promise<{ trn: string }> {
    await delay(this.options.trnDelayMs ?? 0, signal);
    return { trn: sandboxTrn(request.trainee_id) };
  }

  async recommendForAward(request: AwardRequest, signal?: AbortSignal): Promise<{ awarded_at: string }> {
    await delay(this.options.awardDelayMs ?? 0, signal);
    return { awarded_at: `${request.outcome_date}T00:00:00.000Z` };
  }
}

/** A 7-digit TRN derived from the trainee id (first digit 1–9). */
export function sandboxTrn(traineeId: string): string {
  const n = createHash('sha256').update(traineeId).digest().readUInt32BE(0);
  return String(1_000_000 + (n % 9_000_000));
}

/** Waits `ms`; rejects at once when `signal` aborts. */
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
