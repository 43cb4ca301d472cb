/** Global positions (docs/DESIGN.md "Positions"): branded, never computed, as an EventStoreDB position is a byte offset. */

declare const positionBrand: unique symbol;

/** A global position as a store gave it; compared, stored and handed back to that store, never computed. */
export type LogPosition = number & { readonly [positionBrand]: true };

/** `value` as a position a store read from its log or a reader stored and reads back; not for computing one (ESLint refuses other uses). */
export function logPosition(value: number): LogPosition {
  return value as LogPosition;
}

/** The position before every event: the bound that reads from the first, an empty log's head (EventStoreDB's `START`). */
export const LOG_START: LogPosition = logPosition(0);

/** `Math.max` keeping the brand: a checkpoint that only moves forward. */
export function laterPosition(a: LogPosition, b: LogPosition): LogPosition {
  return a >= b ? a : b;
}

/** `Math.min` keeping the brand: a bound cut back to what was read. */
export function earlierPosition(a: LogPosition, b: LogPosition): LogPosition {
  return a <= b ? a : b;
}
