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

/**
 * What an erasure needs (docs/DESIGN.md "Personal data", "Erasure"): each a port of the stores the
 * process opened, composed by `erasurePortsOf` (libs/composition); the stores' adapters do the deleting.
 */
export interface ErasurePorts {
  /** The event store that seals and opens personal data (`withPersonalData`). */
  eventStore: EventStore;
  /** The trainee's stored id for an id given in another case; null when there is none. */
  resolveId(traineeId: string): Promise<string | null>;
  /** `DataKeys.destroy`. */
  destroyKey(traineeId: string, at: Date): Promise<boolean>;
  /** `ReadModelStore.eraseTrainee`. */
  forgetProjected(traineeId: string, ukprn: string, stream: readonly RecordedEvent[]): Promise<void>;
  /** `IdempotencyStore.forget`: kept answers that hold the trainee. */
  forgetAnswers(text: string): Promise<number>;
  /** `WebhookOutbox.forgetTrainee`: the TRN in its deliveries' payloads. */
  forgetDeliveries(traineeId: string): Promise<number>;
  /**
   * The uploads of the trainee's provider that hold a row of it (one that wrote to it, or whose
   * values meet `marks`, `erasedPersonMarks`), purged at once (their data keys destroyed), or, being
   * submitted, as their submit ends: how many of each.
   */
  forgetUploads(traineeId: string, ukprn: string, marks: ReadonlySet<string>): Promise<{ purged: number; purgedWhenSubmitted: number }>;
  /**
   * Records the erasure outside the stores before its key is destroyed (the erasure ledger beside
   * the backups, docs/operations.md "Backups and restore"): the stored id, when (ISO 8601, UTC) and
   * why. No personal data. Absent: recorded nowhere else.
   */
  recordErasure?(traineeId: string, erasedAt: string, reason: string): Promise<void>;
  clock: () => Date;
}

/** What {@link eraseTrainee} did. */
export interface Erasure {
  traineeId: string;
  /** False when the trainee was erased before (this run only finished the forgetting). */
  erasedNow: boolean;
  /** Events of the trainee's stream, the erasure included: every personal value of each now reads `[erased]`. */
  events: number;
  /** Kept idempotent answers deleted. */
  answersForgotten: number;
  /** Webhook deliveries whose payload lost the trainee's TRN. */
  deliveriesForgotten: number;
  /** Uploads purged because they hold a row of the trainee. */
  uploadsPurged: number;
  /** Uploads holding a row of the trainee that are being submitted: their submit's end purges them. */
  uploadsPurgedWhenSubmitted: number;
}

/**
 * Erases a trainee (docs/DESIGN.md "Personal data"; ruling 15): appends `TraineeErased` (why, by
 * whom, when: no personal data), records it in the erasure ledger where the ports have one, then
 * purges the uploads that hold a row of it (found by its values, read while its key still opens
 * them), then destroys its data key, then forgets what the read models, the idempotency keys and
 * the webhook deliveries hold of it (the read models' part made again from its stream as a rebuild
 * would make it). Each step is safe to repeat: a trainee erased before is not erased again, and the
 * later steps run again (an erasure interrupted after its event finishes). Throws `NotFound` for an
 * unknown trainee, `RangeError` for a blank or over-long reason or a blank `erasedBy`.
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
    // Erased before: nothing to append, the forgetting below runs again.
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

/** What `trainee erase` says of an erasure: whether it was erased now, and what was forgotten. */
export function erasureSummary(erasure: Erasure): string {
  return (
    `${erasure.erasedNow ? 'Erased' : 'Already erased:'} trainee ${erasure.traineeId}: its data key is destroyed; ` +
    `its ${erasure.events} events read [erased] for every personal value; ${erasure.answersForgotten} kept answers and ` +
    `${erasure.deliveriesForgotten} webhook deliveries forgotten; ${erasure.uploadsPurged} uploads purged` +
    (erasure.uploadsPurgedWhenSubmitted > 0 ? `, ${erasure.uploadsPurgedWhenSubmitted} more as their submit ends` : '')
  );
}

/** The provider of a trainee's stream, from its registration (a UKPRN is not personal data); null without one. */
function ownerOf(stream: readonly RecordedEvent[]): string | null {
  const first = stream.length > 0 ? decodeTraineeEvent(stream[0]) : null;
  return first?.type === 'TraineeRegistered' ? first.data.ukprn : null;
}
