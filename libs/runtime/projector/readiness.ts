import { STORAGE_FAULT_REASONS, storageFaultOf, type LogPosition, type StoredLog } from '@app/event-sourcing';
import { measureLag } from './projection-lag';
import type { ProjectorHealth } from './projector';
import { READ_MODELS_DAMAGED_REASON } from './read-models-damaged';
import { CHECKPOINT_AHEAD_OF_LOG } from './projector-types';

/** `/readyz`'s answer (docs/operations.md "Health"): one sentence per reason, naming no position, count, stream or error text. */
export interface Readiness {
  ready: boolean;
  /** Empty when ready. */
  reasons: string[];
}

export interface ReadinessInput {
  /** Its lag behind the checkpoint is measured. */
  storedLog: StoredLog;
  /** Null when another process projects. */
  projector: ProjectorHealth | null;
  checkpoint: LogPosition;
  /** `READY_MAX_LAG_SECONDS`: the oldest unapplied event's age past which the process is not ready. */
  maxLagSeconds: number;
  /** Of a write whose projection wait timed out, not yet reached; `LOG_START` when none. */
  behindUntil: LogPosition;
  /** Since it was opened; absent: no. */
  readModelsDamaged?: boolean;
  /** Faults found outside the projector (a data directory refusing writes), given as reasons as they are. */
  faults?: readonly string[];
  now?: Date;
}

/**
 * docs/operations.md "Health": not ready for a fault, a damaged read store, a projector stopped, failing (naming its storage fault) or
 * failed, a lag past `maxLagSeconds`, or a write whose projection wait timed out, until the checkpoint reaches it. Throws the stores'
 * errors.
 */
export async function assessReadiness(input: ReadinessInput): Promise<Readiness> {
  const lag = await measureLag(input.storedLog, input.checkpoint, input.now);
  const reasons: string[] = [...(input.faults ?? []), ...(input.readModelsDamaged ? [READ_MODELS_DAMAGED_REASON] : [])];
  const p = input.projector;
  const storage = p?.failure?.kind === 'apply' ? storageFaultOf(p.failure) : null;
  if (storage && !reasons.includes(STORAGE_FAULT_REASONS[storage])) reasons.push(STORAGE_FAULT_REASONS[storage]);
  if (p?.state === 'stopped') reasons.push('the projector is stopped');
  if (p?.state === 'failed' && p.failure?.code === CHECKPOINT_AHEAD_OF_LOG) {
    reasons.push(
      "the read models' checkpoint is beyond the event log's head (the log was restored older than them): rebuild the projections (see the logs)",
    );
  } else if (p?.state === 'failed') {
    reasons.push('the projector has stopped on an error that subscribing again cannot cure (see the logs)');
  } else if (p?.failure?.kind === 'subscription') {
    reasons.push(`the projector's subscription is failing, retrying (see the logs)`);
  } else if (p?.failure) {
    reasons.push(
      'the projector cannot apply an event and retries it; nothing after it is projected until it applies (see the logs and `admin projections status`)',
    );
  }
  if (lag.seconds > input.maxLagSeconds) {
    reasons.push(`the projection lags ${Math.round(lag.seconds)} s behind the event log (at most ${input.maxLagSeconds} s)`);
  }
  if (input.behindUntil > input.checkpoint) reasons.push('a write timed out waiting for the projection and is not projected yet');
  return { ready: reasons.length === 0, reasons };
}
