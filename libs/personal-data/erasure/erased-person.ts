import type { RecordedEvent } from '@app/event-sourcing';
import { ERASED, SEALED_VALUE } from '@app/personal-data';
import {
  decodeTraineeEvent,
  IDENTIFYING_FIELDS,
  identityMarks,
  PERSONAL_TRAINEE_FIELD_PLACES,
  type IdentifyingField,
} from '@app/trainees/decider';

function valueAt(data: unknown, path: string): string | null {
  let at: unknown = data;
  for (const key of path.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  if (typeof at === 'number') return String(at);
  return typeof at === 'string' && at !== ERASED && at !== SEALED_VALUE ? at : null;
}

/**
 * The trainee's `identityMarks` (the rule that takes a file's row to be this person's): its id and every value of each identifying
 * field in its opened events. Read while the data key still opens them.
 */
export function erasedPersonMarks(traineeId: string, stream: readonly RecordedEvent[]): Set<string> {
  const values = new Map<IdentifyingField, string[]>([['trainee_id', [traineeId]]]);
  for (const recorded of stream) {
    const event = decodeTraineeEvent(recorded);
    if (event === null) continue;
    for (const field of IDENTIFYING_FIELDS) {
      const path = (PERSONAL_TRAINEE_FIELD_PLACES[field] as Partial<Record<string, string>> | undefined)?.[event.type];
      const value = path === undefined ? null : valueAt(event.data, path);
      if (value !== null) values.set(field, [...(values.get(field) ?? []), value]);
    }
  }
  return identityMarks(Object.fromEntries(values));
}
