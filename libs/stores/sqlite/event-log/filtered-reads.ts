import type { Database } from '@app/sqlite';
import type { EventFilter } from '@app/event-sourcing';
import type { EventRow } from './sqlite-rows';

/**
 * Reads of the log by position with a filter (port: `EventStore.readAll` with `filter`): the events
 * after a position whose stream starts with one of the prefixes or whose type is one of the types,
 * in position order, on the primary key from that position; the filter runs in SQL. One statement
 * per count of prefixes and types, prepared once.
 */
export class FilteredReads {
  private readonly statements = new Map<string, Database.Statement<unknown[], EventRow>>();

  /** `columns`: the event columns each row holds (the store's own list). */
  constructor(
    private readonly db: Database.Database,
    private readonly columns: string,
  ) {}

  /** Up to `maxCount` rows after `fromPosition` matching `filter`, in position order. */
  read(fromPosition: number, maxCount: number, filter: EventFilter): EventRow[] {
    const prefixes = filter.streamPrefixes ?? [];
    const types = filter.eventTypes ?? [];
    const params: unknown[] = [fromPosition];
    for (const prefix of prefixes) params.push(prefix, prefix);
    params.push(...types, maxCount);
    return this.statement(prefixes.length, types.length).all(...params);
  }

  /** A cached statement for a filter with this many stream prefixes and event types. */
  private statement(prefixCount: number, typeCount: number): Database.Statement<unknown[], EventRow> {
    const cacheKey = `${prefixCount}:${typeCount}`;
    let statement = this.statements.get(cacheKey);
    if (statement === undefined) {
      // substr/length rather than LIKE: LIKE is case-insensitive and treats % and _ as wildcards.
      const conditions = Array.from({ length: prefixCount }, () => 'substr(stream_id, 1, length(?)) = ?');
      if (typeCount > 0) conditions.push(`type IN (${Array.from({ length: typeCount }, () => '?').join(', ')})`);
      statement = this.db.prepare<unknown[], EventRow>(
        `SELECT ${this.columns} FROM events WHERE position > ? AND (${conditions.join(' OR ')}) ORDER BY position LIMIT ?`,
      );
      this.statements.set(cacheKey, statement);
    }
    return statement;
  }
}
