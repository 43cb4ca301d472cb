import type { StoredLog } from '@app/event-sourcing';
import { keepsParkedEvents } from './parked-events';
import { measureLag } from './projection-lag';
import type { ProjectorHealth } from './projector';

/** What `/readyz` answers (API and projector process): see {@link assessReadiness}. */
export interface Readiness {
  ready: boolean;
  /** Why not ready, one sentence each (empty when ready). */
  reasons: string[];
  checkpoint: number;
  lag: { events: number; events_at_least: boolean; seconds: number };
  /** The projector's state; `external` when another process projects. */
  projector: ProjectorHealth['state'] | 'external';
  /** Events parked in the read store (`admin projections status` lists them). */
  parked_events: number;
}

/** What {@link assessReadiness} looks at. */
export interface ReadinessInput {
  /** The log as stored, whose lag behind the checkpoint is measured (`measureLag`). */
  storedLog: StoredLog;
  /** The read store (its parked events are counted when it keeps them). */
  readModel: unknown;
  /** The projector of this process, or null when another process projects (its checkpoint is then read). */
  projector: ProjectorHealth | null;
  /** The read models' checkpoint. */
  checkpoint: number;
  /** READY_MAX_LAG_SECONDS: the age of the oldest event not applied above which the process is not ready. */
  maxLagSeconds: number;
  /** The position of a write whose projection wait timed out, not yet reached; 0 when none. */
  behindUntil: number;
  now?: Date;
}

/**
 * Readiness as docs/operations.md "Health" defines it: not ready while this process's projector is
 * stopped, failing (in back-off, with what fails) or failed for good (docs/DESIGN.md "Failures of
 * the subscription"), while the oldest event not applied is older than `maxLagSeconds`, or while a
 * write's projection wait timed out and the checkpoint has not reached that write's position.
 * Parked events are counted but do not make the process unready (they were skipped so that the
 * others are served). Throws the stores' errors.
 */
export async function assessReadiness(input: ReadinessInput): Promise<Readiness> {
  const lag = await measureLag(input.storedLog, input.checkpoint, input.now);
  const reasons: string[] = [];
  const p = input.projector;
  if (p?.state === 'stopped') reasons.push('the projector is stopped');
  if (p?.state === 'failed') {
    reasons.push(`the projector has stopped on an error that subscribing again cannot cure: ${p.failure?.message ?? 'unknown'}`);
  } else if (p?.failure?.kind === 'subscription') {
    reasons.push(`the projector's subscription is failing (attempt ${p.failure.attempts}, retrying): ${p.failure.message}`);
  } else if (p?.failure) {
    const f = p.failure;
    reasons.push(
      `the projector is failing at event ${f.stream_id}@${f.revision} (${f.type}, position ${f.position}), ` +
        `attempt ${f.attempts}, retrying: ${f.message}`,
    );
  }
  if (lag.seconds > input.maxLagSeconds) {
    reasons.push(`the projection lags ${Math.round(lag.seconds)} s behind the event log (at most ${input.maxLagSeconds} s)`);
  }
  if (input.behindUntil > input.checkpoint) {
    reasons.push(`a write at position ${input.behindUntil} timed out waiting for the projection (checkpoint ${input.checkpoint})`);
  }
  const parked = keepsParkedEvents(input.readModel) ? (await input.readModel.parkedEvents()).length : 0;
  return {
    ready: reasons.length === 0,
    reasons,
    checkpoint: input.checkpoint,
    lag: { events: lag.events, events_at_least: lag.atLeast, seconds: Math.round(lag.seconds * 1000) / 1000 },
    projector: p?.state ?? 'external',
    parked_events: parked,
  };
}
