import { RegistryUnavailable, type AwardRequest, type TeacherRegistry, type TrnRequest } from './registry.port';

export interface HttpRegistryOptions {
  /** Before {@link RegistryUnavailable}; default 5. */
  attempts?: number;
  /** Ms, doubled after each failure (capped at 5 s); default 200. */
  backoffMs?: number;
  /** Ms per attempt; default 10 s. */
  timeoutMs?: number;
  /** Sent as `Authorization: Bearer …` when set. */
  token?: string;
}

/**
 * A registry over HTTP at `REGISTRY_URL`: `POST {base}/trn-requests` ({@link TrnRequest} → `{trn}`), `POST {base}/award-recommendations`
 * ({@link AwardRequest} → `{awarded_at}`), each with `Idempotency-Key`. Network errors, time-outs, 429 and 5xx are retried with backoff
 * (none once `signal` aborts); then, or on another 4xx (`permanent: true`), {@link RegistryUnavailable}.
 */
export class HttpRegistry implements TeacherRegistry {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly options: HttpRegistryOptions = {},
  ) {
    if (!/^https?:\/\//.test(baseUrl)) throw new Error(`REGISTRY_URL must be an http:// or https:// URL, got '${baseUrl}'`);
    this.base = baseUrl.replace(/\/+$/, '');
  }

  async requestTrn(request: TrnRequest, signal?: AbortSignal): Promise<{ trn: string }> {
    const body = await this.post('/trn-requests', request, signal);
    if (typeof body.trn !== 'string' || body.trn === '') throw new RegistryUnavailable('registry answered a TRN request without a trn');
    return { trn: body.trn };
  }

  async recommendForAward(request: AwardRequest, signal?: AbortSignal): Promise<{ awarded_at: string }> {
    const body = await this.post('/award-recommendations', request, signal);
    const awardedAt = typeof body.awarded_at === 'string' && !Number.isNaN(Date.parse(body.awarded_at)) ? body.awarded_at : null;
    if (!awardedAt) throw new RegistryUnavailable('registry answered an award without awarded_at');
    return { awarded_at: new Date(awardedAt).toISOString() };
  }

  private async post(path: string, payload: { idempotency_key: string }, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const attempts = this.options.attempts ?? 5;
    let backoff = this.options.backoffMs ?? 200;
    let lastError = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const res = await fetch(`${this.base}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'idempotency-key': payload.idempotency_key,
            ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
          },
          body: JSON.stringify(payload),
          // A request in flight is not abandoned when the caller stops: its answer is still recorded.
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
        if (res.ok) return (await res.json()) as Record<string, unknown>;
        lastError = `HTTP ${res.status}`;
        if (res.status !== 429 && res.status < 500)
          throw new RegistryUnavailable(`registry refused ${path}: ${lastError} (permanent: true)`);
      } catch (err) {
        if (err instanceof RegistryUnavailable || signal?.aborted) throw err;
        lastError = err instanceof Error ? err.message : String(err);
      }
      if (attempt < attempts) {
        if (signal?.aborted) throw new RegistryUnavailable(`stopped while retrying ${path}: ${lastError}`);
        await new Promise((r) => setTimeout(r, backoff));
        backoff = Math.min(backoff * 2, 5000);
      }
    }
    throw new RegistryUnavailable(`registry unreachable at ${path} after ${attempts} attempts: ${lastError}`);
  }
}
