import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { importSchoolsCsv } from './import-schools';
import { SqliteSchoolDirectory } from '@app/stores/sqlite';

/** A register export of `rows` schools (plus the register's other columns), produced lazily. */
function registerCsv(rows: number): Readable {
  return Readable.from(
    (function* () {
      yield '\ufeffURN,LA (code),EstablishmentName,TypeOfEstablishment (name),Street,Town,Postcode\n';
      for (let i = 0; i < rows; i++) {
        yield `${100000 + i},${800 + (i % 150)},"School ${i}, Upper",Academy,${i} Road,Town ${i % 300},GU${(i % 9) + 1} 1AA\n`;
      }
      yield 'ABC,999,No URN school,Academy,1 Road,Nowhere,GU1 1AA\n';
      yield '123456,999,,Academy,1 Road,Nowhere,GU1 1AA\n';
    })(),
  );
}

describe('importSchoolsCsv (schools register CSV → directory)', () => {
  let dir: string;
  let directory: SqliteSchoolDirectory;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'schools-'));
    directory = SqliteSchoolDirectory.open(dir);
  });
  afterEach(() => {
    directory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams tens of thousands of rows in batches, skipping rows without a URN or a name', async () => {
    const progress: number[] = [];
    const result = await importSchoolsCsv(registerCsv(30_000), directory, { batchSize: 5000, onProgress: (n) => progress.push(n) });
    expect(result).toEqual({ imported: 30_000, skipped: 2 });
    expect(await directory.count()).toBe(30_000);
    expect(progress.length).toBeGreaterThanOrEqual(6);
    const found = await directory.findByUrns(['100007', '129999', '999999']);
    expect([...found.keys()].sort()).toEqual(['100007', '129999']);
    expect(found.get('100007')).toEqual({ urn: '100007', name: 'School 7, Upper', town: 'Town 7', postcode: 'GU8 1AA' });
  });

  it('replaces a school imported again, and refuses a file without the register columns', async () => {
    await importSchoolsCsv(Readable.from(['URN,EstablishmentName,Town,Postcode\n100001,Old,Leeds,LS1 1AA\n']), directory);
    await importSchoolsCsv(Readable.from(['URN,EstablishmentName,Town,Postcode\n100001,New,Leeds,LS1 1AA\n']), directory);
    expect((await directory.findByUrns(['100001'])).get('100001')?.name).toBe('New');
    await expect(importSchoolsCsv(Readable.from(['id,name\n1,x\n']), directory)).rejects.toThrow('no column URN');
  });
});
