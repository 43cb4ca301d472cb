/**
 * The nested degrees and placements of a trainee create (docs/reference/API-FACTS.md §6.6, §6.10,
 * §9.2, §11.3; docs/DESIGN.md ruling 13), and the rule that a route needing a degree gets one. Each
 * item is checked by the degree and placement rules (validate-degree.ts, validate-placement.ts),
 * its messages kept under `degrees_attributes[]`/`placements_attributes[]` and the item's index.
 */
import type { DegreeInput, PlacementInput, PlacementFields } from '@app/trainees/record';
import type { CourseFacts } from './course.rules';
import type { TraineeRecord } from './trainee-record';
import { checkNestedDegree, degreeDuplicateKey } from './validate-degree';
import { checkPlacement } from './validate-placement';

/**
 * degrees_attributes (§6.6): takes the record and its course facts; where the write applies the
 * rule (create; update when the trainee has no degree), a route that requires a degree and no
 * degree given adds "degrees_attributes must be entered…".
 */
export function checkDegreesRequired(rec: TraineeRecord, { route }: CourseFacts): void {
  const count = rec.write.degreesForRequiredRule;
  if (count !== null && route?.requires_degree && count === 0) {
    rec.add(['degrees_attributes'], `${rec.label('degrees_attributes')} must be entered if specifying a postgraduate training_route`);
  }
}

/**
 * The nested degrees of a create (§6.6, §11.3): takes the record; checks each item as a degree, then
 * refuses duplicates within the payload (§9.2) with one message. Returns the degrees that passed
 * (none on update, whose nested items are ignored, §7.3).
 */
export function checkNestedDegrees(rec: TraineeRecord): DegreeInput[] {
  const degrees: DegreeInput[] = [];
  const items = rec.fields.degrees_attributes;
  if (rec.write.mode !== 'create' || !Array.isArray(items)) return degrees;
  const keys = new Set<string>();
  let duplicate = false;
  items.forEach((item, i) => {
    const degree = checkNestedDegree(item, { rules: rec.rules, today: rec.today }, rec.messages, ['degrees_attributes[]', i]);
    if (!degree) return;
    const key = degreeDuplicateKey(degree);
    if (key !== '' && keys.has(key)) duplicate = true;
    keys.add(key);
    degrees.push(degree);
  });
  if (duplicate) rec.add(['rule:degree_duplicates'], `${rec.label('degrees_attributes')} contains duplicate degrees`);
  return degrees;
}

/**
 * The nested placements of a create (§6.10, ruling 13): takes the record; checks each item as a
 * nested placement against the schools of the context. Returns the placements that passed (none on
 * update, §7.3).
 */
export function checkNestedPlacements(rec: TraineeRecord): PlacementInput[] {
  const placements: PlacementInput[] = [];
  const items = rec.fields.placements_attributes;
  if (rec.write.mode !== 'create' || !Array.isArray(items)) return placements;
  items.forEach((item: PlacementFields, i: number) => {
    const placement = checkPlacement(item, { schools: rec.schools }, { nested: true }, rec.messages, ['placements_attributes[]', i]);
    if (placement) placements.push(placement);
  });
  return placements;
}
