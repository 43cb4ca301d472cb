/** A trainee create's nested degrees and placements (docs/reference/API-FACTS.md §6.6, §6.10, §9.2, §11.3; docs/DESIGN.md ruling 13). */
import type { DegreeInput, PlacementInput, PlacementFields } from '@app/trainees/record';
import type { CourseFacts } from './course.rules';
import type { TraineeRecord } from './trainee-record';
import { checkNestedDegree, degreeDuplicateKey } from './validate-degree';
import { checkPlacement } from './validate-placement';

/** A route that requires a degree gets one (§6.6), where the write applies the rule (create; an update of a trainee with none). */
export function checkDegreesRequired(rec: TraineeRecord, { route }: CourseFacts): void {
  const count = rec.write.degreesForRequiredRule;
  if (count !== null && route?.requires_degree && count === 0) {
    rec.add(['degrees_attributes'], `${rec.label('degrees_attributes')} must be entered if specifying a postgraduate training_route`);
  }
}

/** Each item checked as a degree, duplicates within the body refused with one message (§9.2); none on update (§7.3). */
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

/** Each item checked as a nested placement (§6.10); none on update (§7.3). */
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
