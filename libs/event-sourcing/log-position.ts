/**
 * Global positions of the log as a type (docs/DESIGN.md "The event store port", "Positions").
 *
 * A {@link LogPosition} is a number underneath, so positions compare with `<`, `===` and sort as
 * numbers (positions are ordered on every store), but it is branded: only a store makes one, from a
 * position it read from its log. Arithmetic on one (`p - 1`, `p + 1`) gives a plain number, which
 * the compiler refuses wherever a position is wanted, because on EventStoreDB a position is a byte
 * offset and one no event starts at cannot be read from (docs/DESIGN.md "Testing the EventStoreDB
 * adapter without a server").
 */

declare const positionBrand: unique symbol;

/**
 * A global position of the log, as a store gave it: an event's (`RecordedEvent.position`), an
 * append's (`AppendResult.position`), the head's (`headPosition()`), or {@link LOG_START}. Opaque
 * above the stores: it may be compared, stored and handed back to the store it came from (a
 * checkpoint, a bound), never computed. The stores make them ({@link logPosition}) and keep their
 * own numbers inside.
 */
export type LogPosition = number & { readonly [positionBrand]: true };

/**
 * The {@link LogPosition} of `value`, a position a store read from its log or a reader stored and
 * reads back (the adapters' mapping of their rows and records, a checkpoint's column, a cursor
 * whose MAC was checked; test fixtures standing in for them). Not for computing one.
 */
export function logPosition(value: number): LogPosition {
  return value as LogPosition;
}

/**
 * The position before every event (0): the exclusive bound that reads from the first event, the
 * head of an empty log, the checkpoint of a reader that has handled nothing. On EventStoreDB it is
 * the client's `START`.
 */
export const LOG_START: LogPosition = logPosition(0);

/** The later of two positions (`Math.max` keeps the brand): a checkpoint that only moves forward. */
export function laterPosition(a: LogPosition, b: LogPosition): LogPosition {
  return a >= b ? a : b;
}

/** The earlier of two positions (`Math.min` keeps the brand): a bound cut back to what was read. */
export function earlierPosition(a: LogPosition, b: LogPosition): LogPosition {
  return a <= b ? a : b;
}
