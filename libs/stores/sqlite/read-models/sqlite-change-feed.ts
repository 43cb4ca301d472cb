import type { LogPosition } from '@app/event-sourcing';
import { CHANGE_FEED_SINCE_VERSION } from '@app/runtime/projector';
import type { ChangeFeed, StoredChange } from '@app/changes';
import type { ReadStoreView } from './read-store-view';

/**
 * The change feed (`ChangeFeed`; docs/change-feed.md) on the served trainee store of the embedded
 * read store's `view`, whose changes commit with each batch's checkpoint; null from a store built
 * before the feed was kept (`CHANGE_FEED_SINCE_VERSION`).
 */
export class SqliteChangeFeed implements ChangeFeed {
  constructor(private readonly view: ReadStoreView) {}

  /** See `ChangeFeed.listChanges`: a batch's changes commit with its checkpoint. */
  async listChanges(ukprn: string, afterPosition: LogPosition, limit: number): Promise<StoredChange[] | null> {
    return this.view.read((t) =>
      this.view.servedVersion('trainees') < CHANGE_FEED_SINCE_VERSION ? null : t.trainees.changes(ukprn, afterPosition, limit),
    );
  }

  /** See `ChangeFeed.changesBetween`. */
  async changesBetween(afterPosition: LogPosition, upToPosition: LogPosition, limit: number): Promise<StoredChange[] | null> {
    return this.view.read((t) =>
      this.view.servedVersion('trainees') < CHANGE_FEED_SINCE_VERSION
        ? null
        : t.trainees.changesBetween(afterPosition, upToPosition, limit),
    );
  }
}
