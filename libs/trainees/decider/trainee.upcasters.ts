import { registerUpcaster } from '@app/event-sourcing';
import type { Placement } from '@app/trainees/record';

/**
 * Upcasters of trainee events (docs/DESIGN.md "Event envelope": old schema versions are read as the
 * current one; stored events are never rewritten).
 *
 * `PlacementAdded` v1 → v2: placements written before the schools directory existed had no
 * `school_id` (no placement was linked to a school then), and their `address` was derived from the
 * URN and postcode alone. v2 carries `school_id`; a v1 placement reads as unlinked: `school_id: null`,
 * `address: null` (an unknown URN has no address).
 */
registerUpcaster('PlacementAdded', 1, (data) => {
  const d = data as { trainee_id: string; placement: Omit<Placement, 'school_id'> & { school_id?: number | null }; at: string };
  return {
    ...d,
    placement: { ...d.placement, school_id: d.placement.school_id ?? null, address: d.placement.school_id ? d.placement.address : null },
  };
});
