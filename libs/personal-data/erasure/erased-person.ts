import type { RecordedEvent } from '@app/event-sourcing';
import { ERASED, SEALED_VALUE } from '@app/personal-data';
import {
  decodeTraineeEvent,
  IDENTIFYING_FIELDS,
  identityMarks,
  PERSONAL_TRAINEE_FIELD_PLACES,
  type IdentifyingField,
} from '@app/trainees/decider';

/** The value at `path` (`<key>` or `<key>.<key>`) of an event's data, as text; null for none. */
function valueAt(data: unknown, path: string): string | null {
  let at: unknown = data;
  for (const key of path.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  if (typeof at === 'number') return String(at);
  return typeof at === 'string' && at !== ERASED && at !== SEALED_VALUE ? at : null;
}

/**
 * The marks (`identityMarks`, libs/trainees/decider: the rule that takes a row of a file to be this
 * person's) of the trainee `traineeId` of `stream`, its events as opened: its id, and every value
 * each identifying field held in any of its events. Read while its data key still opens them: once
 * destroyed, every value reads `[erased]`, and only the id is left (docs/DESIGN.md "Personal data").
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
