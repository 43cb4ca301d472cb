import type { Trainee } from '@app/trainees/record';
import type { StreamHead } from '@app/event-sourcing';

/** Nothing yet, a trainee, or an erased one, gone for every command as if it never existed (docs/DESIGN.md "Erasure"). */
export type TraineeState = { exists: false; erased?: true } | { exists: true; trainee: Trainee };

export const initialTraineeState: TraineeState = { exists: false };

/** The read model's document and its stream's head, which a command starts from (docs/DESIGN.md "Bounded cost per trainee"). */
export interface TraineeSnapshot {
  trainee: Trainee;
  head: StreamHead;
}
