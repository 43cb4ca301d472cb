/**
 * The wire checks of a placement body and a nested `placements_attributes` item, the same in every version
 * (docs/reference/API-FACTS.md §10.1, §6.10; docs/DESIGN.md ruling 13).
 */
import { NESTED_PLACEMENT_PREFIX } from '@app/trainees/decider';
import { API_VERSIONS, PLACEMENT_RECORD, type FieldInput, type PlacementFields } from '@app/trainees/record';
import { wireFieldOf } from './wire-fields';
import { WireObject, type WireField } from './wire-object';

function placementFields(prefix: string): WireField[] {
  return PLACEMENT_RECORD.filter((row): row is Extract<(typeof PLACEMENT_RECORD)[number], { input: FieldInput }> => 'input' in row)
    .map((row) => wireFieldOf(row, API_VERSIONS[0], { prefix }))
    .filter((f): f is WireField => f !== null);
}

/** A placement body's `data`. */
export const PLACEMENT_WIRE = new WireObject<PlacementFields>('PlacementInput', placementFields(''));

/** One item of a trainee create's `placements_attributes` (messages prefixed, §5.2). */
export const NESTED_PLACEMENT_WIRE = new WireObject<PlacementFields>('NestedPlacementInput', placementFields(NESTED_PLACEMENT_PREFIX));
