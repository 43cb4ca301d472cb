import { Database, makePrivateDirectory, openPrivateDatabase } from '@app/sqlite';
import { join } from 'node:path';
import type { School } from '@app/trainees/record';
import type { SchoolDirectory } from '@app/schools';

/** The schools directory on SQLite (`<DATA_DIR>/schools.sqlite`, one table keyed by URN). */
export class SqliteSchoolDirectory implements SchoolDirectory {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly byUrn: Database.Statement<[string], School>;

  constructor(filename: string) {
    this.db = openPrivateDatabase(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS schools (urn TEXT PRIMARY KEY, name TEXT NOT NULL, town TEXT, postcode TEXT)`);
    this.upsert = this.db.prepare(
      `INSERT INTO schools (urn, name, town, postcode) VALUES (@urn, @name, @town, @postcode)
       ON CONFLICT (urn) DO UPDATE SET name = excluded.name, town = excluded.town, postcode = excluded.postcode`,
    );
    this.byUrn = this.db.prepare(`SELECT urn, name, town, postcode FROM schools WHERE urn = ?`);
  }

  /** Opens `<dataDir>/schools.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqliteSchoolDirectory {
    makePrivateDirectory(dataDir);
    return new SqliteSchoolDirectory(join(dataDir, 'schools.sqlite'));
  }

  async findByUrns(urns: readonly string[]): Promise<Map<string, School>> {
    const found = new Map<string, School>();
    for (const urn of new Set(urns)) {
      const school = this.byUrn.get(urn);
      if (school) found.set(urn, school);
    }
    return found;
  }

  async upsertMany(schools: readonly School[]): Promise<void> {
    this.db.transaction((rows: readonly School[]) => {
      for (const s of rows) this.upsert.run(s);
    })(schools);
  }

  async count(): Promise<number> {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM schools`).get() as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }
}
