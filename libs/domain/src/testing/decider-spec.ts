import type { TraineeCommand } from '../trainee/trainee.commands';
import { decide } from '../trainee/trainee.decide';
import type { TraineeEvent } from '../trainee/trainee.events';
import { evolveAll } from '../trainee/trainee.evolve';

/**
 * Given-events / when-command / then-events specifications of the trainee decider (STYLE.md,
 * "The domain as a decider").
 */
export function given(events: TraineeEvent[]) {
  return {
    when(command: TraineeCommand) {
      const run = () => decide(command, evolveAll(events));
      return {
        then(expected: TraineeEvent[]): void {
          expect(run()).toEqual(expected);
        },
        thenMatch(check: (events: TraineeEvent[]) => void): void {
          check(run());
        },
        thenThrows(errorClass: new (...args: never[]) => Error, check?: (error: Error) => void): void {
          let thrown: unknown;
          try {
            run();
          } catch (err) {
            thrown = err;
          }
          expect(thrown).toBeInstanceOf(errorClass);
          check?.(thrown as Error);
        },
      };
    },
  };
}
