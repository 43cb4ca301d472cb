import type { School } from '@app/trainees/record';

/**
 * Schools by URN, loaded from the public register (docs/operations.md "Schools"). A placement event records the school as it was,
 * so replaying the log never depends on the directory.
 */
export interface SchoolDirectory {
  /** Unknown URNs are absent from the map. */
  findByUrns(urns: readonly string[]): Promise<Map<string, School>>;
  upsertMany(schools: readonly School[]): Promise<void>;
  count(): Promise<number>;
  close(): Promise<void> | void;
}

export const SCHOOL_DIRECTORY = Symbol('SCHOOL_DIRECTORY');
