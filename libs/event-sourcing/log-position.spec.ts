/**
 * Positions are opaque above the stores (event-store.port.ts `LogPosition`): a position computed
 * from another is refused by the compiler where a position is wanted. Checked by the typecheck
 * (`npm run typecheck` runs over the tests): each `@ts-expect-error` fails it if the line compiles.
 */
import { logPosition, type LogPosition, type RecordedEvent } from './event-store.port';

const read: Pick<RecordedEvent, 'position'> = { position: logPosition(1024) };

describe('LogPosition', () => {
  it('is refused the result of arithmetic on a position, and compares as a number', () => {
    // @ts-expect-error -- a position minus one is a number, not a position of the log
    const before: LogPosition = read.position - 1;
    // @ts-expect-error -- nor is a position plus one
    const after: LogPosition = read.position + 1;
    // @ts-expect-error -- nor a bare number
    const made: LogPosition = 1023;
    const same: LogPosition = read.position;
    expect([before, after, made, same]).toEqual([1023, 1025, 1023, 1024]);
    expect(read.position > before).toBe(true);
  });
});
