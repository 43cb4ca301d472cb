import {
  decide,
  decodeTraineeEvent,
  evolve,
  initialTraineeState,
  NotFound,
  traineeStreamId,
  type TraineeEvent,
  type TraineeState,
} from '@app/trainees/decider';
import { newEventId, runCommand, toEventData, type EventStore, type RecordedEvent } from '@app/event-sourcing';
import { erasedPersonMarks } from './erased-person';

/** Ports of the stores the process opened (`erasurePortsOf`, libs/composition); the adapters do the deleting. */
export interface ErasurePorts {
  /** The one that seals and opens personal data (`withPersonalData`). */
  eventStore: EventStore;
  /** The stored id for an id given in another case; null when none. */
  resolveId(traineeId: string): Promise<string | null>;
  destroyKey(traineeId: string, at: Date): Promise<boolean>;
  forgetProjected(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void>;
  /** Kept idempotent answers that hold the trainee. */
  forgetAnswers(text: string): Promise<number>;
  /** The TRN in the webhook deliveries' payloads. */
  forgetDeliveries(traineeId: string): Promise<number>;
  /** Uploads holding a row of the trainee (written to it, or meeting `marks`): purged now, or, being submitted, as their submit ends. */
  forgetUploads(traineeId: string, ukprn: string, marks: ReadonlySet<string>): Promise<{ purged: number; purgedWhenSubmitted: number }>;
  /** The erasure ledger beside the backups (docs/operations.md "Backups and restore"), before the key goes; no personal data. */
  recordErasure?(traineeId: string, erasedAt: string, reason: string): Promise<void>;
  clock: () => Date;
}

export interface Erasure {
  traineeId: string;
  /** False when erased before: this run only finished the forgetting. */
  erasedNow: boolean;
  /** Events of the stream, the erasure included. */
  events: number;
  answersForgotten: number;
  deliveriesForgotten: number;
  uploadsPurged: number;
  /** Being submitted: their submit's end purges them. */
  uploadsPurgedWhenSubmitted: number;
}

/**
 * Erases a trainee (docs/DESIGN.md "Personal data"; ruling 15): `TraineeErased` appended, the ledger written, uploads holding it purged
 * (found by its values while its key still opens them), its data key destroyed, then read models, idempotent answers and webhook
 * deliveries forgotten. Every step is safe to repeat. Throws `NotFound`; `RangeError` for a blank or over-long reason or blank `erasedBy`.
 */
export async function eraseTrainee(ports: ErasurePorts, traineeId: string, reason: string, erasedBy: string): Promise<Erasure> {
  let id = traineeId;
  let stream = await ports.eventStore.readStream(traineeStreamId(id));
  if (stream.length === 0) {
    id = (await ports.resolveId(traineeId)) ?? traineeId;
    stream = id === traineeId ? [] : await ports.eventStore.readStream(traineeStreamId(id));
  }
  const ukprn = ownerOf(stream);
  if (stream.length === 0 || ukprn === null) throw new NotFound('Trainee');
  const now = ports.clock().toISOString();
  const outcome = await runCommand<TraineeState, TraineeEvent>(ports.eventStore, traineeStreamId(id), {
    initialState: initialTraineeState,
    evolve,
    decode: decodeTraineeEvent,
    decide: (state) =>
      !state.exists && state.erased ? [] : decide({ type: 'EraseTrainee', trainee_id: id, reason, erased_by: erasedBy, now }, state),
    encode: (events) => toEventData(events, { occurredAt: now }, newEventId),
  });
  const erasedNow = outcome.events.length > 0;
  await ports.recordErasure?.(id, now, reason);
  // Before the key goes: the uploads are found by the trainee's values, which only its key opens.
  const opened = await ports.eventStore.readStream(traineeStreamId(id));
  const uploads = await ports.forgetUploads(id, ukprn, erasedPersonMarks(id, opened));
  await ports.destroyKey(id, ports.clock());
  const erased = await ports.eventStore.readStream(traineeStreamId(id));
  await ports.forgetProjected(id, ukprn, erased);
  const answersForgotten = await ports.forgetAnswers(id);
  const deliveriesForgotten = await ports.forgetDeliveries(id);
  return {
    traineeId: id,
    erasedNow,
    events: erased.length,
    answersForgotten,
    deliveriesForgotten,
    uploadsPurged: uploads.purged,
    uploadsPurgedWhenSubmitted: uploads.purgedWhenSubmitted,
  };
}

export function erasureSummary(erasure: Erasure): string {
  return (
    `${erasure.erasedNow ? 'Erased' : 'Already erased:'} trainee ${erasure.traineeId}: its data key is destroyed; ` +
    `its ${erasure.events} events read [erased] for every personal value; ${erasure.answersForgotten} kept answers and ` +
    `${erasure.deliveriesForgotten} webhook deliveries forgotten; ${erasure.uploadsPurged} uploads purged` +
    (erasure.uploadsPurgedWhenSubmitted > 0 ? `, ${erasure.uploadsPurgedWhenSubmitted} more as their submit ends` : '')
  );
}

/** From its registration (a UKPRN is not personal data); null without one. */
function ownerOf(stream: readonly RecordedEvent[]): string | null {
  const first = stream.length > 0 ? decodeTraineeEvent(stream[0]) : null;
  return first?.type === 'TraineeRegistered' ? first.data.ukprn : null;
}
