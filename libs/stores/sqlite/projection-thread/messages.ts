/** What the API's thread, its log writer and its projection thread say to each other (docs/DESIGN.md "The projection thread"). */
import {
  IdempotencyConflictError,
  StreamChainBrokenError,
  WrongExpectedVersionError,
  type ExpectedRevision,
  type LogPosition,
} from '@app/event-sourcing';
import type { KeySourceTicket } from '@app/keys';
import type { ProjectorHealth } from '@app/runtime/projector';
import type { QueuedWrite } from '../event-log/sqlite-rows';
import type { AppendOutcome } from '../event-log/sqlite-event-store';

export interface LogWriterJob {
  dataDir: string;
  hashChain: boolean;
}

/** Units of work to commit, or the end (after the queued units commit). */
export type ToWriter =
  { type: 'append'; id: number; units: QueuedWrite[][]; sealed: SealedValuesShared | null } | { type: 'close'; id: number };

/** `values[i]`: the JSON text of event `eventIds[i]`'s box plaintext; carried with appends and commit messages to the projector. */
export interface SealedValuesShared {
  eventIds: string[];
  values: string[];
}

/** The oldest go first. */
export const SEALED_VALUES_HELD = 4096;

export function holdSealedValues(to: SealedValuesShared, eventIds: string[], values: string[]): void {
  to.eventIds.push(...eventIds);
  to.values.push(...values);
  const over = to.eventIds.length - SEALED_VALUES_HELD;
  if (over > 0) {
    to.eventIds.splice(0, over);
    to.values.splice(0, over);
  }
}

/** The writer committed; these values came since the last one. */
export type WriterCommitted = { type: 'committed'; sealed: SealedValuesShared | null };

export type FromWriter =
  | { type: 'appended'; id: number; units: UnitOutcome[] }
  /** The API's thread wakes its subscriptions. */
  | { type: 'committed' }
  | { type: 'closed'; id: number; error?: CarriedError };

export interface ProjectionThreadJob {
  dataDir: string;
  /** Tracing is on in the API's thread. */
  traced: boolean;
  keyEncryptionKeys: KeySourceTicket | null;
}

export type ToThread =
  | { type: 'catch-up'; id: number }
  | { type: 'start'; id: number }
  /** The thread goes on committing appends; `start` resumes. */
  | { type: 'stop'; id: number }
  | { type: 'close'; id: number }
  /** `bytes` holds the 32-byte key of `ids[i]` at `i * 32`; the thread keeps them as if it had read them. */
  | { type: 'data-keys'; ids: string[]; bytes: Uint8Array };

/** Its class by name, message and the fields the API reads. */
export interface CarriedError {
  name: string;
  message: string;
  streamId?: string;
  expected?: ExpectedRevision;
  actual?: number | 'no_stream';
  eventId?: string;
  revision?: number;
  code?: string;
}

export type UnitOutcome = { ok: true; outcomes: AppendOutcome[] } | { ok: false; error: CarriedError };

export type FromThread =
  | { type: 'done'; id: number; checkpoint: LogPosition; health: ProjectorHealth }
  | { type: 'failed'; id: number; error: CarriedError }
  | {
      type: 'applied';
      checkpoint: LogPosition;
      events: number;
      seconds: number;
      /** Tokens issued, revoked or used. */
      providerEvents: boolean;
      /** Where tracing is on. */
      traced: { type: string; traceparent: string }[];
      health: ProjectorHealth;
    }
  | { type: 'health'; health: ProjectorHealth }
  | { type: 'log'; level: 'error' | 'warn'; message: string; context?: Record<string, unknown> }
  | { type: 'fatal'; error: CarriedError };

export function carry(error: unknown): CarriedError {
  if (error instanceof WrongExpectedVersionError)
    return { name: error.name, message: error.message, streamId: error.streamId, expected: error.expected, actual: error.actual };
  if (error instanceof IdempotencyConflictError)
    return { name: error.name, message: error.message, streamId: error.streamId, eventId: error.eventId };
  if (error instanceof StreamChainBrokenError)
    return { name: error.name, message: error.message, streamId: error.streamId, revision: error.revision };
  if (error instanceof Error) return { name: error.name, message: error.message, code: (error as { code?: string }).code };
  return { name: 'Error', message: String(error) };
}

/** The event store port's own classes where it was one. */
export function revive(carried: CarriedError): Error {
  if (carried.name === 'WrongExpectedVersionError')
    return new WrongExpectedVersionError(carried.streamId!, carried.expected!, carried.actual!);
  if (carried.name === 'IdempotencyConflictError') return new IdempotencyConflictError(carried.streamId!, carried.eventId!);
  if (carried.name === 'StreamChainBrokenError') return new StreamChainBrokenError(carried.streamId!, carried.revision!);
  const error =
    carried.name === 'TypeError'
      ? new TypeError(carried.message)
      : carried.name === 'RangeError'
        ? new RangeError(carried.message)
        : new Error(carried.message);
  if (carried.name !== 'TypeError' && carried.name !== 'RangeError') error.name = carried.name;
  if (carried.code) (error as Error & { code?: string }).code = carried.code;
  return error;
}
