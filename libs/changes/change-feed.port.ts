import type { LogPosition } from '@app/event-sourcing';
import type { StoredChange } from './changes';

/** The change feed's reads (docs/change-feed.md), kept by the trainee projection beside its documents. */
export interface ChangeFeed {
  /**
   * The change feed (docs/change-feed.md): the provider's changes with a position above
   * `afterPosition`, oldest first, at most `limit`; only changes the store holds whole (up to its
   * checkpoint). A change belongs to the provider owning the trainee after it. Null when the served
   * store was built by a projection version before `CHANGE_FEED_SINCE_VERSION` (its feed is not whole).
   */
  listChanges(ukprn: string, afterPosition: LogPosition, limit: number): Promise<StoredChange[] | null>;
  /**
   * Every provider's changes with a position in (`afterPosition`, `upToPosition`], oldest first,
   * at most `limit`: what the webhook dispatcher reads (docs/change-feed.md "Webhooks"). Call it
   * with `upToPosition` at most the store's `checkpoint()`. Null from a store without a whole feed
   * (as `listChanges`).
   */
  changesBetween(afterPosition: LogPosition, upToPosition: LogPosition, limit: number): Promise<StoredChange[] | null>;
}

/** Injection token of the {@link ChangeFeed}. */
export const CHANGE_FEED = Symbol('CHANGE_FEED');
