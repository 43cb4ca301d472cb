import { DeciderSpecification } from './decider-specification';

/** A toy decider: a counter that may be incremented up to a limit. */
type Increment = { type: 'Increment'; by: number };
type Incremented = { type: 'Incremented'; by: number };
class LimitReached extends Error {
  constructor(readonly count: number) {
    super(`limit reached at ${count}`);
  }
}
const LIMIT = 3;
let decisions = 0;
const spec = DeciderSpecification.for<Increment, Incremented, number>({
  initialState: () => 0,
  evolve: (count, event) => count + event.by,
  decide: (command, count) => {
    decisions += 1;
    if (count + command.by > LIMIT) throw new LimitReached(count);
    return command.by === 0 ? [] : [{ type: 'Incremented', by: command.by }];
  },
});
const increment = (by: number): Increment => ({ type: 'Increment', by });
const incremented = (by: number): Incremented => ({ type: 'Incremented', by });

describe('DeciderSpecification', () => {
  it('decides on the state folded from the given events, from the initial state', () => {
    spec
      .given([incremented(1), incremented(1)])
      .when(increment(1))
      .then([incremented(1)]);
    spec
      .given([incremented(1), incremented(1)])
      .when(increment(2))
      .thenThrows(LimitReached, (e) => expect(e.count).toBe(2));
  });

  it('decides only when asked to assert', () => {
    const before = decisions;
    const step = spec.given([]).when(increment(1));
    expect(decisions).toBe(before);
    step.then([incremented(1)]);
    expect(decisions).toBe(before + 1);
  });

  it('then fails on other events, and when the decision throws', () => {
    expect(() =>
      spec
        .given([])
        .when(increment(1))
        .then([incremented(2)]),
    ).toThrow();
    expect(() => spec.given([]).when(increment(1)).then([])).toThrow();
    expect(() => spec.given([]).when(increment(9)).then([])).toThrow(LimitReached);
  });

  it('then compares strictly: an extra undefined field is a difference', () => {
    expect(() =>
      spec
        .given([])
        .when(increment(1))
        .then([{ ...incremented(1), extra: undefined } as Incremented]),
    ).toThrow();
  });

  it('thenNothingHappened passes on no events only', () => {
    spec.given([]).when(increment(0)).thenNothingHappened();
    expect(() => spec.given([]).when(increment(1)).thenNothingHappened()).toThrow();
  });

  it('thenMatch hands the events to the check, whose failure fails the spec', () => {
    spec
      .given([])
      .when(increment(2))
      .thenMatch((events) => expect(events).toEqual([incremented(2)]));
    expect(() =>
      spec
        .given([])
        .when(increment(2))
        .thenMatch((events) => expect(events).toEqual([])),
    ).toThrow();
  });

  it('thenThrows fails when nothing is thrown, when another error is thrown, and when the check fails', () => {
    expect(() => spec.given([]).when(increment(1)).thenThrows(LimitReached)).toThrow(/expected LimitReached to be thrown/);
    expect(() => spec.given([]).when(increment(9)).thenThrows(TypeError)).toThrow();
    expect(() =>
      spec
        .given([])
        .when(increment(9))
        .thenThrows(LimitReached, () => false),
    ).toThrow(/failed its check/);
    expect(() =>
      spec
        .given([])
        .when(increment(9))
        .thenThrows(LimitReached, (e) => expect(e.count).toBe(1)),
    ).toThrow();
    spec
      .given([])
      .when(increment(9))
      .thenThrows(LimitReached, (e) => e.count === 0);
  });
});
