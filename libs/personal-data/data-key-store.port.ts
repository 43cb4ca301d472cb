/**
 * Where the trainees' data keys are kept (docs/operations.md "The service key"): one
 * wrapped key per trainee (the data key sealed under the key-encryption key; see `DataKeys`), in a
 * store of its own, outside the projection stores, so rebuilding a projection never touches it.
 * An erased trainee's key is destroyed and its id kept as erased, so no key is ever made for it
 * again. Adapters: SQLite (`<DATA_DIR>/keys.sqlite`) and MongoDB (collection `data_keys`). Both also
 * keep the duplicate rule's registration reservations (`RegistrationReservations`, docs/DESIGN.md
 * property 3), and `destroy` deletes the erased trainee's claims with its key.
 */
export interface DataKeyStore {
  /**
   * The trainee's wrapped key: the stored one, or `wrapped` stored now when it has none (the first
   * of concurrent callers wins and every caller gets the same one); `erased` when the trainee's
   * key was destroyed.
   */
  ensure(traineeId: string, wrapped: Buffer): Promise<Buffer | 'erased'>;
  /**
   * Stores the wrapped keys of trainees that have none yet (new ids, made for trainees still to be
   * registered), all in one durable write: a pool the write path draws from, so a create waits on
   * no write of its own to the key store (docs/DESIGN.md "Personal data"). Throws when an id already
   * has a row (a programming error: the ids are random).
   */
  reserve(entries: ReadonlyArray<{ traineeId: string; wrapped: Buffer }>): Promise<void>;
  /** The trainee's wrapped key; null when it has none, `erased` when it was destroyed. */
  get(traineeId: string): Promise<Buffer | null | 'erased'>;
  /**
   * Destroys the trainee's key and keeps its id as erased, at `at`; true when a key was destroyed
   * now (false when there was none, or it was destroyed before). What is destroyed does not stay
   * readable in the store's files (each adapter says how far it can promise this); an adapter that
   * cannot yet make it so throws {@link DataKeyNotForgotten}, and a later call for the same trainee
   * finishes it.
   */
  destroy(traineeId: string, at: Date): Promise<boolean>;
  /**
   * Up to `limit` trainees holding a key (erased ones are left out), in trainee id order after
   * `after` (null: from the first), each with its wrapped key: how a rotation walks the store in
   * batches while the service writes (docs/operations.md "Rotating the service key").
   */
  wrappedAfter(after: string | null, limit: number): Promise<Array<{ traineeId: string; wrapped: Buffer }>>;
  /**
   * Stores `wrapped` as the trainee's key only while its stored key is still `expected`
   * (compare-and-set): true when replaced; false when the key was destroyed or changed meanwhile,
   * which leaves it as it is (an erasure during a rotation stays an erasure).
   */
  replace(traineeId: string, expected: Buffer, wrapped: Buffer): Promise<boolean>;
  /**
   * The trainees whose keys were destroyed after `mark`, by any process, and the mark to ask with
   * next (`mark` null: none, only the mark of now): what a process checks before it uses a key it
   * keeps in memory, so an erasure elsewhere takes effect at once (docs/DESIGN.md "Personal data").
   * Cheap when nothing changed (each adapter says how it knows). A trainee may be named again.
   */
  erasedSince(mark: number | null): Promise<{ mark: number; traineeIds: string[] }>;
  close(): Promise<void>;
}

/** Nest token of the process's {@link DataKeyStore}. */
export const DATA_KEY_STORE = Symbol('DATA_KEY_STORE');

export { DataKeyNotForgotten } from './erasure-unfinished';
