import type { VersionContract } from '@app/trainees/contract';
import type { RequestData, Trainee, TraineeCommand, TraineeRules } from '@app/trainees/decider';
import type { School } from '@app/trainees/record';
import type { SchoolLookup } from '@app/trainees/write';

/** What every command on an item shares: the trainee (stored id), its provider, the version's rules and the instant. */
export interface ItemCommandBase {
  trainee_id: string;
  ukprn: string;
  rules: TraineeRules;
  /** ISO 8601 instant, UTC. */
  now: string;
}

/**
 * A kind of item a trainee holds under `/trainees/{trainee_id}/<path>` (placements, degrees):
 * everything the generic sub-resource slice needs to route, decide and answer for it
 * (docs/spec/trainee-records-api.md "Placement object", "Degree object"; docs/reference/API-FACTS.md
 * §10, §11). `Item` is the stored item, `Fields` its checked request body.
 */
export interface SubResource<Item, Fields> {
  /** Singular name: `placement`, `degree` (the wire body's name, the id parameter's stem). */
  name: 'placement' | 'degree';
  /** The path segment under a trainee: `placements`, `degrees`. */
  path: string;
  /** The trainee's items in creation order. */
  itemsOf(trainee: Trainee): Item[];
  /** The item with this id; NotFound (`Placement(s) not found`, …) when the trainee has none. */
  find(trainee: Trainee, itemId: string): Item;
  /** Schools a body names, looked up before deciding (placements link schools by URN); null when the kind has none. */
  schoolsFor(lookup: SchoolLookup, data: RequestData<Fields>): Promise<Map<string, School>> | null;
  /** The domain command adding item `itemId` with `data`. */
  add(base: ItemCommandBase, itemId: string, data: RequestData<Fields>, schools: Map<string, School> | null): TraineeCommand;
  /** The domain command changing item `itemId` (PUT and PATCH alike). */
  update(base: ItemCommandBase, itemId: string, data: RequestData<Fields>, schools: Map<string, School> | null): TraineeCommand;
  /** The domain command removing item `itemId`. */
  remove(base: ItemCommandBase, itemId: string): TraineeCommand;
  /** The version's representation of one item. */
  serialize(contract: VersionContract, item: Item): Record<string, unknown>;
  /** The `data` of a 201 after an add (docs/DESIGN.md rulings 2 and 10). */
  created(contract: VersionContract, item: Item): unknown;
}

/** A sub-resource of any item type (the slice's commands carry one). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySubResource = SubResource<any, any>;
