import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { londonDate, ProviderOperations } from '@app/providers/write';
import { EVENT_STORE, type EventStore } from '@app/event-sourcing';
import { PROVIDER_READ_MODEL, type ProviderReadModel, type TokenRecord } from '@app/providers/read';
import { LOGGER } from '../composition/tokens';

/** Token expiry's and use's clock, and each token's use recorded at most once a day, Europe/London (API-FACTS §2.4, §2.7). */
@Injectable()
export class TokenUse {
  /** A field, so a test can move the API's time. */
  clock: () => Date = () => new Date();
  private readonly operations: ProviderOperations;
  /** Recorded, or being recorded, by this process on {@link memoDay}. */
  private readonly recorded = new Set<string>();
  private memoDay = '';
  /** Epoch ms ÷ 60,000. */
  private todayMinute = Number.NaN;
  private todayOfMinute = '';

  constructor(
    @Inject(EVENT_STORE) eventStore: EventStore,
    @Inject(PROVIDER_READ_MODEL) providers: ProviderReadModel,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.operations = new ProviderOperations(eventStore, providers, () => this.clock());
  }

  /** `YYYY-MM-DD` in Europe/London, formatted once per minute: London's midnight is always on a whole UTC minute. */
  today(): string {
    const now = this.clock();
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute !== this.todayMinute) {
      this.todayMinute = minute;
      this.todayOfMinute = londonDate(now);
    }
    return this.todayOfMinute;
  }

  /**
   * Unless the read model or this process has it on `today`, appends `TokenUsed` in the background, never waiting or throwing (processes
   * race to a rare duplicate, which the projection folds with a max); a failure is logged (token id only) and retried next request.
   */
  recordUse(token: Pick<TokenRecord, 'token_id' | 'ukprn' | 'last_used_at'>, today: string): void {
    if (this.memoDay !== today) {
      this.recorded.clear();
      this.memoDay = today;
    }
    // The set first: after a token's first request of the day, every later one stops here.
    if (this.recorded.has(token.token_id)) return;
    if (token.last_used_at !== null && londonDate(new Date(token.last_used_at)) >= today) {
      this.recorded.add(token.token_id);
      return;
    }
    this.recorded.add(token.token_id);
    this.operations.recordTokenUse(token.ukprn, token.token_id).catch((err: unknown) => {
      this.recorded.delete(token.token_id);
      this.logger.error({ token_id: token.token_id, err: err instanceof Error ? err.message : String(err) }, 'token use not recorded');
    });
  }
}
