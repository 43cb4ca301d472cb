/**
 * Given-events / when-command / then-events specifications of any decider (docs/STYLE.md, "The
 * domain as a decider"), after Emmett's `DeciderSpecification`:
 *
 * ```ts
 * const spec = DeciderSpecification.for({ decide, evolve, initialState: () => initialTraineeState });
 * spec.given(exampleHistoryIn('trn_received')).when(deferTrainee()).then([traineeDeferred({ at: NOW })]);
 * ```
 *
 * The state is folded from the given events with the decider's own `evolve`, starting at
 * `initialState()`; the command runs when an assertion (`then…`) is called, never before.
 */

/** A decider: what {@link DeciderSpecification.for} needs. */
export interface Decider<Command, Event, State> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  /** A fresh initial state (a function, so one spec cannot leak state into the next). */
  initialState(): State;
}

/** An error class, as `thenThrows` takes it. */
export type ErrorClass<E extends Error> = new (...args: never[]) => E;

/** What a `when(command)` can assert about the decision. */
export interface ThenStep<Event> {
  /** The decision is exactly these events, in this order (deep, strict equality). */
  then(expected: Event[]): void;
  /** The decision is no event at all (an idempotent or unchanged command). */
  thenNothingHappened(): void;
  /** The decision's events pass `check` (for events with generated parts); `check` asserts with `expect`. */
  thenMatch(check: (events: Event[]) => void): void;
  /**
   * The decision throws an instance of `errorClass`; `check`, if given, asserts on the error with
   * `expect`, or returns false to fail.
   */
  thenThrows<E extends Error>(errorClass: ErrorClass<E>, check?: (error: E) => void | boolean): void;
}

/** The step after `given(events)`. */
export interface WhenStep<Command, Event> {
  when(command: Command): ThenStep<Event>;
}

/** A decider's specification: `given(events)` starts each spec. */
export interface DeciderSpec<Command, Event> {
  given(events: readonly Event[]): WhenStep<Command, Event>;
}

/** Builds given/when/then specifications for any decider. */
export const DeciderSpecification = {
  for<Command, Event, State>(decider: Decider<Command, Event, State>): DeciderSpec<Command, Event> {
    const given = (events: readonly Event[]): WhenStep<Command, Event> => ({
      when(command: Command): ThenStep<Event> {
        const run = (): Event[] => {
          const state = events.reduce((folded, event) => decider.evolve(folded, event), decider.initialState());
          return decider.decide(command, state);
        };
        return {
          then(expected) {
            expect(run()).toStrictEqual(expected);
          },
          thenNothingHappened() {
            expect(run()).toStrictEqual([]);
          },
          thenMatch(check) {
            check(run());
          },
          thenThrows(errorClass, check) {
            let decided: Event[] | undefined;
            let thrown: unknown;
            try {
              decided = run();
            } catch (error) {
              thrown = error;
            }
            if (decided !== undefined) {
              throw new Error(`expected ${errorClass.name} to be thrown, but the decision was ${JSON.stringify(decided)}`);
            }
            expect(thrown).toBeInstanceOf(errorClass);
            if (check?.(thrown as InstanceType<typeof errorClass>) === false) {
              throw new Error(`the ${errorClass.name} thrown failed its check: ${(thrown as Error).message}`);
            }
          },
        };
      },
    });
    return { given };
  },
};
