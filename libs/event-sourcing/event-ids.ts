import { randomUUID } from 'node:crypto';

/** A random UUID; re-appending an id is a no-op. */
export function newEventId(): string {
  return randomUUID();
}
