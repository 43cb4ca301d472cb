import type { Trainee } from '@app/trainees/record';

/**
 * The decider's state: nothing yet, or a trainee, or a trainee that was erased (`erased`: it is gone
 * for every command, as one that never existed; docs/DESIGN.md "Personal data").
 */
export type TraineeState = { exists: false; erased?: true } | { exists: true; trainee: Trainee };

export const initialTraineeState: TraineeState = { exists: false };

/**
 * A trainee and the revision (0-based, in `trainee-<trainee_id>`) of the last event folded into it:
 * the read model's document, which a command starts from (docs/DESIGN.md "Bounded cost per trainee").
 */
export interface TraineeSnapshot {
  trainee: Trainee;
  revision: number;
  /** The hash of the stream's event at `revision`, when the read model holds it (docs/DESIGN.md "Verifiable history"). */
  hash?: string | null;
}
