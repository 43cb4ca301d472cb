import { randomUUID } from 'node:crypto';

/** A fresh event id, a random UUID (the `id` of docs/DESIGN.md "Event envelope"; re-appending an id is a no-op). */
export function newEventId(): string {
  return randomUUID();
}
