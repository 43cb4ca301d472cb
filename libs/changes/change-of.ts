import { ERASED } from '@app/personal-data';
import { changedFields, forgottenChange, type StoredChange } from './changes';
import type { Degree, Placement, Trainee } from '@app/trainees/record';
import type { TraineeEvent } from '@app/trainees/decider';
import type { RecordedEvent } from '@app/event-sourcing';
import type { TraineeDocument } from '@app/trainees/read';

function itemOf<T extends { placement_id: string } | { degree_id: string }>(items: readonly T[], id: string): T | null {
  return items.find((item) => ('placement_id' in item ? item.placement_id : item.degree_id) === id) ?? null;
}

function subRecordOf(event: TraineeEvent): { record: 'placement' | 'degree'; id: string } | null {
  switch (event.type) {
    case 'PlacementAdded':
    case 'PlacementUpdated':
      return { record: 'placement', id: event.data.placement.placement_id };
    case 'PlacementRemoved':
      return { record: 'placement', id: event.data.placement_id };
    case 'DegreeAdded':
    case 'DegreeUpdated':
      return { record: 'degree', id: event.data.degree.degree_id };
    case 'DegreeRemoved':
      return { record: 'degree', id: event.data.degree_id };
    default:
      return null;
  }
}

/**
 * The change feed's entry of a trainee event that changed its document (docs/change-feed.md "What a change holds"); for a trainee read
 * after its erasure, {@link forgottenChange} of it. Pure, so the live projection, the erasure and every rebuild make the same entry.
 */
export function changeOf(
  event: TraineeEvent,
  recorded: RecordedEvent,
  before: TraineeDocument | null,
  after: TraineeDocument,
): StoredChange {
  const t = after.trainee;
  const sub = subRecordOf(event);
  let changed: string[];
  if (sub?.record === 'placement') {
    const find = (doc: TraineeDocument | null): Placement | null => (doc ? itemOf(doc.trainee.placements, sub.id) : null);
    changed = changedFields('placement', find(before), find(after));
  } else if (sub?.record === 'degree') {
    const find = (doc: TraineeDocument | null): Degree | null => (doc ? itemOf(doc.trainee.degrees, sub.id) : null);
    changed = changedFields('degree', find(before), find(after));
  } else {
    changed = changedFields('trainee', before?.trainee ?? null, t);
  }
  const change: StoredChange = {
    position: recorded.position,
    ukprn: t.ukprn,
    trainee_id: t.trainee_id,
    type: event.type,
    occurred_at: recorded.metadata.occurredAt,
    record: sub?.record ?? 'trainee',
    item_id: sub?.id ?? null,
    changed_fields: changed,
    state: t.state,
    trn: t.trn,
  };
  return readAfterErasure(t) ? forgottenChange(change) : change;
}

/** Its required names read `[erased]`, as every personal value does once the data key is destroyed. */
function readAfterErasure(t: Trainee): boolean {
  return t.details.first_names === ERASED && t.details.last_name === ERASED;
}
