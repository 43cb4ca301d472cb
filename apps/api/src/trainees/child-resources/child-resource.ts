import type { VersionContract } from '@app/trainees/contract';
import type { RequestData, TraineeCommand, TraineeRules } from '@app/trainees/decider';
import type { School, Trainee } from '@app/trainees/record';
import type { SchoolLookup } from '@app/trainees/write';

/** Singular; also the kind of their write body in the version's contract. */
export type ChildName = 'placement' | 'degree';

/** Besides the child's own: the trainee's stored id, the caller's UKPRN, the version's rules, the instant (ISO 8601 UTC). */
export interface ChildCommandBase {
  trainee_id: string;
  ukprn: string;
  rules: TraineeRules;
  now: string;
}

/** By URN. */
export type SchoolsNamed = ReadonlyMap<string, School>;

/**
 * A child resource under /api/{version}/trainees/{trainee_id}/<name>s (API-FACTS §4, §10, §11), served by one generic slice: its record
 * `R`, its body's typed fields `F`, answers and decider commands; names follow from `name` ({@link childNames}).
 */
export interface ChildResource<N extends ChildName, R, F> {
  name: N;
  /** In creation order; `find` throws NotFound (`<Name>(s) not found`). */
  record: { of(trainee: Trainee): readonly R[]; find(trainee: Trainee, id: string): R };
  /** One child in the version's shape (GET, PUT, PATCH), and POST's 201 `data`. */
  answer: { one(output: VersionContract['output'], child: R): unknown; created(output: VersionContract['output'], child: R): unknown };
  /** Per write; `schools` looks up the schools a body names before deciding, so `decide` stays pure. */
  commands: {
    add(base: ChildCommandBase, id: string, data: RequestData<F>, schools: SchoolsNamed): TraineeCommand;
    update(base: ChildCommandBase, id: string, data: RequestData<F>, schools: SchoolsNamed): TraineeCommand;
    remove(base: ChildCommandBase, id: string): TraineeCommand;
    schools?(lookup: SchoolLookup, data: RequestData<F>): Promise<SchoolsNamed>;
  };
  /** PUT's summary note, POST's description, the 201's description, the 409's schema where a write can find a duplicate. */
  docs: { replaceNote: string; createDescription?: string; createdDescription: string; conflict?: string };
}

export type AnyChildResource = ChildResource<ChildName, unknown, unknown>;

/** `placements`, `placement_id`, `Placement` (its schema names' and operation ids' root), tag `Placements`. */
export function childNames<N extends ChildName>(name: N): { path: `${N}s`; idParam: `${N}_id`; title: string; tag: string } {
  const title = `${name[0].toUpperCase()}${name.slice(1)}`;
  return { path: `${name}s`, idParam: `${name}_id`, title, tag: `${title}s` };
}
