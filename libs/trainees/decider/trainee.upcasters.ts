import { registerUpcaster } from '@app/event-sourcing';
import type { Placement } from '@app/trainees/record';

/**
 * `PlacementAdded` v1 → v2 (docs/DESIGN.md "Event envelope"): a v1 placement predates the schools directory, so it reads as
 * unlinked, `school_id: null`, its URN-and-postcode `address` null.
 */
registerUpcaster('PlacementAdded', 1, (data) => {
  const d = data as { trainee_id: string; placement: Omit<Placement, 'school_id'> & { school_id?: number | null }; at: string };
  return {
    ...d,
    placement: { ...d.placement, school_id: d.placement.school_id ?? null, address: d.placement.school_id ? d.placement.address : null },
  };
});
