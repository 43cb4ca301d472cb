import { STORAGE_FAULT_REASONS, storageFaultOf, type LogPosition, type StoredLog } from '@app/event-sourcing';
import { measureLag } from './projection-lag';
import type { ProjectorHealth } from './projector';
import { READ_MODELS_DAMAGED_REASON } from './read-models-damaged';

/**
 * What `/readyz` answers (API and projector process; docs/operations.md "Health"): ready or not and
 * why, one sentence each, naming no position, count, stream or error text (the endpoint needs no
 * token; the counts are metrics, what failed is in the logs and `admin projections status`).
 */
export interface Readiness {
  ready: boolean;
  /** Why not ready, one sentence each (empty when ready). */
  reasons: string[];
}

/** What {@link assessReadiness} looks at. */
export interface ReadinessInput {
  /** The log as stored, whose lag behind the checkpoint is measured (`measureLag`). */
  storedLog: StoredLog;
  /** The projector of this process, or null when another process projects (its checkpoint is then read). */
  projector: ProjectorHealth | null;
  /** The read models' checkpoint. */
  checkpoint: LogPosition;
  /** READY_MAX_LAG_SECONDS: the age of the oldest event not applied above which the process is not ready. */
  maxLagSeconds: number;
  /** The position of a write whose projection wait timed out, not yet reached; `LOG_START` when none. */
  behindUntil: LogPosition;
  /** Whether the read store was found damaged (`ReadModelsDamaged`) since it was opened; absent: no. */
  readModelsDamaged?: boolean;
  /**
   * Faults this process found outside the projector, one sentence each, given as reasons as they
   * are (the API's: a data directory that refuses writes, `StorageFaults`). Default none.
   */
  faults?: readonly string[];
  now?: Date;
}

/**
 * Readiness as docs/operations.md "Health" defines it: not ready while one of `faults` holds, while
 * the read store is damaged ({@link READ_MODELS_DAMAGED_REASON}: a restart rebuilds it), while this
 * process's projector is stopped, failing (in back-off: resubscribing, or retrying an event it
 * cannot apply, whose storage fault, by its error's code, is named too: `storageFaultOf`) or failed
 * for good (docs/DESIGN.md "Failures of the subscription"), while the oldest event not applied is
 * older than `maxLagSeconds`, or while a write's projection wait timed out and the checkpoint has
 * not reached that write's position. Throws the stores' errors.
 */
export async function assessReadiness(input: ReadinessInput): Promise<Readiness> {
  const lag = await measureLag(input.storedLog, input.checkpoint, input.now);
  const reasons: string[] = [...(input.faults ?? []), ...(input.readModelsDamaged ? [READ_MODELS_DAMAGED_REASON] : [])];
  const p = input.projector;
  const storage = p?.failure?.kind === 'apply' ? storageFaultOf(p.failure) : null;
  if (storage && !reasons.includes(STORAGE_FAULT_REASONS[storage])) reasons.push(STORAGE_FAULT_REASONS[storage]);
  if (p?.state === 'stopped') reasons.push('the projector is stopped');
  if (p?.state === 'failed') {
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
