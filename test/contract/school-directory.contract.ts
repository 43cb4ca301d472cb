/**
 * The contract every schools directory passes (libs/schools/school-directory.port.ts;
 * docs/operations.md "Schools"): schools found by URN (unknown ones absent), an import inserts or
 * replaces by URN, the count, and another connection to the same storage sees the same.
 */
import type { SchoolDirectory } from '@app/schools';
import type { School } from '@app/trainees/record';

/** A directory on fresh storage; `reopen` opens another one on the same storage (as another process would). */
export interface SchoolDirectoryFixture {
  directory: SchoolDirectory;
  reopen(): Promise<SchoolDirectory>;
  cleanup(): Promise<void>;
}

const school = (urn: string, name: string, town: string | null = 'Leeds', postcode: string | null = 'LS1 1AA'): School => ({
  urn,
  name,
  town,
  postcode,
});

/** Registers the contract for directory `name`; `open` is called before each test and its `cleanup` after it. */
export function describeSchoolDirectoryContract(name: string, open: () => Promise<SchoolDirectoryFixture>): void {
  describe(`Schools directory contract: ${name}`, () => {
    let fx: SchoolDirectoryFixture;
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(() => fx.cleanup());

    it('finds the schools of the URNs it knows, and none of the others', async () => {
      expect(await fx.directory.count()).toBe(0);
      await fx.directory.upsertMany([school('100001', 'Park School'), school('100002', 'Hill Academy', null, null)]);
      const found = await fx.directory.findByUrns(['100002', '999999', '100001', '100002']);
      expect(new Map([...found].sort())).toEqual(
        new Map([
          ['100001', school('100001', 'Park School')],
          ['100002', school('100002', 'Hill Academy', null, null)],
        ]),
      );
      expect(await fx.directory.findByUrns([])).toEqual(new Map());
      expect(await fx.directory.count()).toBe(2);
    });

    it('replaces a school imported again by URN, as another connection sees', async () => {
      await fx.directory.upsertMany([school('100001', 'Park School')]);
      await fx.directory.upsertMany([school('100001', 'Park Primary School', 'York', null), school('100003', 'Vale School')]);
      await fx.directory.upsertMany([]);
      const other = await fx.reopen();
      expect((await other.findByUrns(['100001'])).get('100001')).toEqual(school('100001', 'Park Primary School', 'York', null));
      expect(await other.count()).toBe(2);
    });
  });
}
