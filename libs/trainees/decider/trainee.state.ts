import type { Trainee } from '@app/trainees/record';
import type { StreamHead } from '@app/event-sourcing';

/**
 * The decider's state: nothing yet, or a trainee, or a trainee that was erased (`erased`: it is gone
 * for every command, as one that never existed; docs/DESIGN.md "Personal data").
 */
export type TraineeState = { exists: false; erased?: true } | { exists: true; trainee: Trainee };

export const initialTraineeState: TraineeState = { exists: false };

/**
 * A trainee and the head of `trainee-<trainee_id>` at the last event folded into it (its 0-based
 * revision, and the link the next append chains to when the read model kept it): the read model's
 * document, which a command starts from (docs/DESIGN.md "Bounded cost per trainee").
 */
export interface TraineeSnapshot {
  trainee: Trainee;
  head: StreamHead;
}
