import type { VersionContract } from '@app/trainees/contract';
import type { RequestData, TraineeCommand, TraineeRules } from '@app/trainees/decider';
import type { School, Trainee } from '@app/trainees/record';
import type { SchoolLookup } from '@app/trainees/write';

/** The children a trainee has, by their singular name (also the kind of their write body in the version's contract). */
export type ChildName = 'placement' | 'degree';

/**
 * What every decider command on a child carries besides the child's own: the trainee's stored id,
 * the caller's UKPRN, the version's rules, the instant (ISO 8601 UTC).
 */
export interface ChildCommandBase {
  trainee_id: string;
  ukprn: string;
  rules: TraineeRules;
  now: string;
}

/** The schools of the directory a child's body names, by URN. */
export type SchoolsNamed = ReadonlyMap<string, School>;

/**
 * A child resource of a trainee, served under /api/{version}/trainees/{trainee_id}/<name>s
 * (docs/spec/trainee-records-api.md "Placement object", "Degree object"; docs/reference/API-FACTS.md
 * §4, §10, §11) by one generic slice (`childResourceController`, `ChildWriteCommand`): its record
 * `R` (as a trainee holds it), its write body's typed fields `F`, its answers and its decider commands.
 * Everything named follows from `name` ({@link childNames}).
 */
export interface ChildResource<N extends ChildName, R, F> {
  name: N;
  /** The record: a trainee's children in creation order; one child by id as sent, or NotFound (`<Name>(s) not found`). */
  record: { of(trainee: Trainee): readonly R[]; find(trainee: Trainee, id: string): R };
  /** The answer: one child in the version's shape (GET, PUT, PATCH) and the `data` of POST's 201. */
  answer: { one(output: VersionContract['output'], child: R): unknown; created(output: VersionContract['output'], child: R): unknown };
  /**
   * The decider command of each write, from the base, the child's id (new on add), the checked body
   * and the schools it names; `schools`, where a body names schools, looks them up before deciding
   * (`decide` stays pure).
   */
  commands: {
    add(base: ChildCommandBase, id: string, data: RequestData<F>, schools: SchoolsNamed): TraineeCommand;
    update(base: ChildCommandBase, id: string, data: RequestData<F>, schools: SchoolsNamed): TraineeCommand;
    remove(base: ChildCommandBase, id: string): TraineeCommand;
    schools?(lookup: SchoolLookup, data: RequestData<F>): Promise<SchoolsNamed>;
  };
  /**
   * The child's own words in the OpenAPI documents: PUT's summary note, POST's description, the
   * 201's description, and the 409's schema where a write can find a duplicate.
   */
  docs: { replaceNote: string; createDescription?: string; createdDescription: string; conflict?: string };
}

/** Any child resource, as the generic slice holds it. */
export type AnyChildResource = ChildResource<ChildName, unknown, unknown>;

/**
 * What follows from a child's name: the path segment (`placements`), the id parameter
 * (`placement_id`), the title (`Placement`, the root of its OpenAPI schema names and operation ids)
 * and the OpenAPI tag (`Placements`).
 */
export function childNames<N extends ChildName>(name: N): { path: `${N}s`; idParam: `${N}_id`; title: string; tag: string } {
  const title = `${name[0].toUpperCase()}${name.slice(1)}`;
  return { path: `${name}s`, idParam: `${name}_id`, title, tag: `${title}s` };
}
