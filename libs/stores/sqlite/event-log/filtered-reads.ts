import type { Database } from '@app/sqlite';
import type { EventFilter } from '@app/event-sourcing';
import type { EventRow } from './sqlite-rows';

/** `readAll` with a filter, run in SQL on the primary key from the position; one statement per count of prefixes and types. */
export class FilteredReads {
  private readonly statements = new Map<string, Database.Statement<unknown[], EventRow>>();

  /** The store's own list of event columns. */
  constructor(
    private readonly db: Database.Database,
    private readonly columns: string,
  ) {}

  read(fromPosition: number, maxCount: number, filter: EventFilter): EventRow[] {
    const prefixes = filter.streamPrefixes ?? [];
    const types = filter.eventTypes ?? [];
    const params: unknown[] = [fromPosition];
    for (const prefix of prefixes) params.push(prefix, prefix);
    params.push(...types, maxCount);
    return this.statement(prefixes.length, types.length).all(...params);
  }

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
