import type { School } from '@app/trainees/record';

/**
 * The schools directory: URN → name, town, postcode, loaded by operators from the public schools
 * register (docs/operations.md "Schools"). Placements link to it by URN; a placement event records
 * the school's details as they were, so replaying the log never depends on the directory.
 */
export interface SchoolDirectory {
  /** The schools of these URNs that the directory knows (unknown URNs are absent from the map). */
  findByUrns(urns: readonly string[]): Promise<Map<string, School>>;
  /** Inserts or replaces schools by URN. */
  upsertMany(schools: readonly School[]): Promise<void>;
  /** How many schools the directory holds. */
  count(): Promise<number>;
  close(): Promise<void> | void;
}

/** Injection token of the {@link SchoolDirectory}. */
export const SCHOOL_DIRECTORY = Symbol('SCHOOL_DIRECTORY');
