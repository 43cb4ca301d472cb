/**
 * The trainees' wrapped data keys, one per trainee, in a store outside the projection stores (docs/DESIGN.md "Personal data"). An
 * erased trainee's id is kept as erased so no key is made for it again. The adapters also keep the registration reservations.
 */
export interface DataKeyStore {
  /** The stored key, or `wrapped` stored now when none (concurrent callers all get the first); `erased` when destroyed. */
  ensure(traineeId: string, wrapped: Buffer): Promise<Buffer | 'erased'>;
  /** Stores keys for ids of trainees still to be registered in one durable write (the create path's pool); throws for an id held. */
  reserve(entries: ReadonlyArray<{ traineeId: string; wrapped: Buffer }>): Promise<void>;
  /** The trainee's wrapped key; null when it has none, `erased` when it was destroyed. */
  get(traineeId: string): Promise<Buffer | null | 'erased'>;
  /**
   * Destroys the key and keeps the id as erased; true when destroyed now. What is destroyed does not stay readable in the files (each
   * adapter says how far); an adapter that cannot yet make it so throws {@link DataKeyNotForgotten}, and a later call finishes it.
   */
  destroy(traineeId: string, at: Date): Promise<boolean>;
  /** Up to `limit` non-erased keys in trainee id order after `after` (null: from the first): a rotation's batches. */
  wrappedAfter(after: string | null, limit: number): Promise<Array<{ traineeId: string; wrapped: Buffer }>>;
  /** Compare-and-set: false when the key was destroyed or changed meanwhile (an erasure during a rotation stays an erasure). */
  replace(traineeId: string, expected: Buffer, wrapped: Buffer): Promise<boolean>;
  /**
   * Trainees whose keys were destroyed after `mark` by any process, and the next mark (`mark` null: only the mark of now); checked
   * before a key kept in memory is used. Cheap when nothing changed. A trainee may be named again.
   */
  erasedSince(mark: number | null): Promise<{ mark: number; traineeIds: string[] }>;
  close(): Promise<void>;
}

export const DATA_KEY_STORE = Symbol('DATA_KEY_STORE');

export { DataKeyNotForgotten } from './erasure-unfinished';
