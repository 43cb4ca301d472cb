import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { londonDate, ProviderOperations } from '@app/providers/write';
import { EVENT_STORE, type EventStore } from '@app/event-sourcing';
import { PROVIDER_READ_MODEL, type ProviderReadModel, type TokenRecord } from '@app/providers/read';
import { LOGGER } from '../composition/tokens';

/**
 * The clock of token expiry and last use, and the recording of a token's use at most once a
 * calendar day (docs/reference/API-FACTS.md §2.4, §2.7; "today" is a date in Europe/London).
 * `clock` is a field so a test can move the API's time without waiting.
 */
@Injectable()
export class TokenUse {
  /** The API's clock for tokens. */
  clock: () => Date = () => new Date();
  private readonly operations: ProviderOperations;
  /** `token_id` of the uses recorded (or being recorded) by this process on {@link memoDay}. */
  private readonly recorded = new Set<string>();
  private memoDay = '';
  /** The minute (ms since the epoch ÷ 60,000) {@link todayOfMinute} was computed for. */
  private todayMinute = Number.NaN;
  private todayOfMinute = '';

  constructor(
    @Inject(EVENT_STORE) eventStore: EventStore,
    @Inject(PROVIDER_READ_MODEL) providers: ProviderReadModel,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.operations = new ProviderOperations(eventStore, providers, () => this.clock());
  }

  /**
   * Today, `YYYY-MM-DD` in Europe/London, by {@link clock}. Formatted once per minute of the clock:
   * London's midnight is always on a whole UTC minute (its offsets are whole hours).
   */
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
   * Records the use of `token` on `today` unless its read-model `last_used_at` is already on that
   * day or this process has recorded it today. Never waits nor throws: the `TokenUsed` event is
   * appended in the background (the domain appends none for a day already recorded, so requests
   * of several processes append at most a rare duplicate, which the projection folds with a max);
   * a failure is logged (token id only) and retried by the next request.
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
