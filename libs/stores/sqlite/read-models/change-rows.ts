import type { Database } from '@app/sqlite';
import type { StoredChange } from '@app/changes';
import type { LogPosition } from '@app/event-sourcing';

/**
 * The change feed's rows in the read store (docs/DESIGN.md "Read models"): each change's `position` and `ukprn` are the row's columns,
 * and its `change` text is a JSON array `[trainee_id, [field codes], type, occurred_at, record, item_id, state, trn]`, the changed
 * fields' canonical names given as codes of the store's field table (a registration names some 50 fields: about 900 bytes as names).
 * A row written before this form holds the whole {@link StoredChange} as a JSON object, and still reads.
 */

/** A change as the projector or a bulk build's worker prepares it, before its field names have codes (only the writer knows them). */
export interface ChangeRow {
  position: number;
  ukprn: string;
  traineeId: string;
  changedFields: string[];
  /** `type, occurred_at, record, item_id, state, trn` as JSON, without the array's opening bracket. */
  rest: string;
}

/** The row of `change` ({@link ChangeRow}). */
export function changeRowOf(change: StoredChange): ChangeRow {
  const rest = JSON.stringify([change.type, change.occurred_at, change.record, change.item_id, change.state, change.trn]);
  return { position: change.position, ukprn: change.ukprn, traineeId: change.trainee_id, changedFields: change.changed_fields, rest };
}

/** The table of trainee store `store`'s change field codes: a row per canonical field name a change named, its code never reused. */
export function changeFieldsTableOf(store: string): string {
  return `trainee_change_fields_${store}`;
}

/** A feed row as selected in raw mode (a tuple costs less than an object): `position`, `ukprn` and the `change` text. */
export type ChangeText = [position: number, ukprn: string, change: string];

/**
 * The field codes of one trainee store's change feed, kept in its table ({@link changeFieldsTableOf}) and cached here. Codes are only
 * ever added, so a cached code stays right while another connection (the admin CLI, a thread) adds more; an unknown code is read again.
 */
export class ChangeFieldCodes {
  private readonly codes = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly select: Database.Statement<[], { code: number; name: string }>;
  private readonly add: Database.Statement<[string]>;
  private readonly codeOf: Database.Statement<[string], number>;

  /** Makes `table` ({@link changeFieldsTableOf}) if missing. */
  constructor(db: Database.Database, table: string) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`);
    this.select = db.prepare(`SELECT code, name FROM ${table}`);
    this.add = db.prepare(`INSERT OR IGNORE INTO ${table} (name) VALUES (?)`);
    this.codeOf = db.prepare<[string], number>(`SELECT code FROM ${table} WHERE name = ?`).pluck();
    this.reload();
  }

  /** The `change` text of `row`, its field names' codes added to the table where new (inside the caller's write transaction). */
  encode(row: ChangeRow): string {
    let codes = '';
    for (const name of row.changedFields) codes += `${codes ? ',' : ''}${this.code(name)}`;
    return `[${JSON.stringify(row.traineeId)},[${codes}],${row.rest.slice(1)}`;
  }

  /** The stored change of a selected row, in either stored form; throws for a code no row of the table holds. */
  decode([position, ukprn, text]: ChangeText): StoredChange {
    if (text.startsWith('{')) return JSON.parse(text) as StoredChange;
    const [trainee_id, codes, type, occurred_at, record, item_id, state, trn] = JSON.parse(text) as [
      string,
      number[],
      StoredChange['type'],
      string,
      StoredChange['record'],
      string | null,
      StoredChange['state'],
      string | null,
    ];
    const changed_fields = codes.map((code) => this.name(code));
    return {
      position: position as LogPosition,
      ukprn,
      trainee_id,
      type,
      occurred_at,
      record,
      item_id,
      changed_fields,
      state,
      trn,
    };
  }

  private code(name: string): number {
    let code = this.codes.get(name);
    if (code === undefined) {
      this.add.run(name);
      code = this.codeOf.get(name)!;
      this.remember(code, name);
    }
    return code;
  }

  private name(code: number): string {
    if (this.names[code] === undefined) this.reload();
    const name = this.names[code];
    if (name === undefined) throw new Error(`the change feed names field code ${code}, which its field table does not hold`);
    return name;
  }

  private reload(): void {
    for (const { code, name } of this.select.all()) this.remember(code, name);
  }

  private remember(code: number, name: string): void {
    this.codes.set(name, code);
    this.names[code] = name;
  }
}
