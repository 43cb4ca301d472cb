import type { LogPosition } from '@app/event-sourcing';
import type { StoredChange } from './changes';

/** The change feed's reads (docs/change-feed.md), kept by the trainee projection beside its documents. */
export interface ChangeFeed {
  /**
   * The provider's changes above `afterPosition`, oldest first, at most `limit`, up to the store's checkpoint; a change belongs to the
   * provider owning the trainee after it. Null when the store was built before `CHANGE_FEED_SINCE_VERSION` (its feed is not whole).
   */
  listChanges(ukprn: string, afterPosition: LogPosition, limit: number): Promise<StoredChange[] | null>;
  /** Every provider's changes in (`afterPosition`, `upToPosition`], for the webhook dispatcher; `upToPosition` ≤ `checkpoint()`. */
  changesBetween(afterPosition: LogPosition, upToPosition: LogPosition, limit: number): Promise<StoredChange[] | null>;
}

export const CHANGE_FEED = Symbol('CHANGE_FEED');
