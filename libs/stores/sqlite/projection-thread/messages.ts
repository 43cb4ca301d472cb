/**
 * What the API's thread, its log writer thread and its projection thread say to each other
 * (docs/DESIGN.md "The projection thread"): plain data, as `postMessage` copies it.
 */
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

/** What the log writer thread is started with (`workerData.job`). */
export interface LogWriterJob {
  dataDir: string;
  /** Whether appends chain each stream's events (`SqliteEventStoreOptions.hashChain`). */
  hashChain: boolean;
}

/** A message to the log writer thread: units of work to commit, or the end (after the queued units commit). */
export type ToWriter =
  { type: 'append'; id: number; units: QueuedWrite[][]; sealed: SealedValuesShared | null } | { type: 'close'; id: number };

/**
 * The sealed values of events the API's thread sealed (docs/DESIGN.md "Personal data"):
 * `values[i]` is the JSON text of the values of event `eventIds[i]` (its box's plaintext). They
 * travel with the appends to the log writer, which hands them to the projection thread with its
 * next commit message; the projector takes each once when it reaches the event.
 */
export interface SealedValuesShared {
  eventIds: string[];
  values: string[];
}

/** Sealed values held at most while they wait for an append or a commit message to carry them; the oldest go first. */
export const SEALED_VALUES_HELD = 4096;

/** Adds `eventIds` and `values` to `to`, keeping the newest {@link SEALED_VALUES_HELD}. */
export function holdSealedValues(to: SealedValuesShared, eventIds: string[], values: string[]): void {
  to.eventIds.push(...eventIds);
  to.values.push(...values);
  const over = to.eventIds.length - SEALED_VALUES_HELD;
  if (over > 0) {
    to.eventIds.splice(0, over);
    to.values.splice(0, over);
  }
}

/** A message from the log writer thread to the projection thread: it committed, and these values came since the last one. */
export type WriterCommitted = { type: 'committed'; sealed: SealedValuesShared | null };

/** A message from the log writer thread. */
export type FromWriter =
  | { type: 'appended'; id: number; units: UnitOutcome[] }
  /** The writer committed appends: the API's thread wakes its subscriptions. */
  | { type: 'committed' }
  | { type: 'closed'; id: number; error?: CarriedError };

/** What the projection thread is started with (`workerData.job`). */
export interface ProjectionThreadJob {
  dataDir: string;
  /** Whether to send each applied batch's events' type and `traceparent` (tracing is on in the API's thread). */
  traced: boolean;
  /** The key-encryption keys of the trainees' data keys, as the thread makes them again, or null (see `ProjectionThreadOptions`). */
  keyEncryptionKeys: KeySourceTicket | null;
}

/** A message to the projection thread. */
export type ToThread =
  | { type: 'catch-up'; id: number }
  | { type: 'start'; id: number }
  /** Stops projecting (the thread goes on committing appends); `start` resumes. */
  | { type: 'stop'; id: number }
  /** Stops projecting, closes the thread's connections and ends the thread. */
  | { type: 'close'; id: number }
  /**
   * Data keys the API's thread opened or made (docs/DESIGN.md "Personal data"): `bytes` holds the
   * 32-byte key of `ids[i]` at `i * 32`. The thread keeps them as if it had read them itself.
   */
  | { type: 'data-keys'; ids: string[]; bytes: Uint8Array };

/** An error as it crosses threads: its class (by name), message and the fields the API reads. */
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

/** The outcome of one unit of work of an `append` message. */
export type UnitOutcome = { ok: true; outcomes: AppendOutcome[] } | { ok: false; error: CarriedError };

/** A message from the projection thread. */
export type FromThread =
  | { type: 'done'; id: number; checkpoint: LogPosition; health: ProjectorHealth }
  | { type: 'failed'; id: number; error: CarriedError }
  | {
      type: 'applied';
      checkpoint: LogPosition;
      events: number;
      seconds: number;
      /** A provider stream's event was applied (tokens issued, revoked or used). */
      providerEvents: boolean;
      /** The applied events' type and `traceparent`, where tracing is on. */
      traced: { type: string; traceparent: string }[];
      health: ProjectorHealth;
    }
  | { type: 'health'; health: ProjectorHealth }
  | { type: 'log'; level: 'error' | 'warn'; message: string; context?: Record<string, unknown> }
  | { type: 'fatal'; error: CarriedError };

/** `error` as plain data. */
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

/** The error a {@link CarriedError} stands for: the event store port's own classes where it was one. */
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
