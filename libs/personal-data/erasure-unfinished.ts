/**
 * An erasure whose forgetting a store could not finish within its time limit (docs/DESIGN.md
 * "Personal data"): the trainee is erased, but a copy of what was deleted may still be in one of
 * the store's files. The erasure reports it (`trainee erase` exits 1 with the message); running the
 * erasure again finishes the job, each of its steps being safe to repeat.
 */
export class ErasureUnfinished extends Error {
  constructor(
    readonly traineeId: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A trainee's data key is destroyed, but the key store could not yet clear a copy of the old key
 * from its own files (SQLite: a reader held the WAL, so it could not be truncated).
 */
export class DataKeyNotForgotten extends ErasureUnfinished {
  constructor(traineeId: string, detail: string) {
    super(traineeId, `the data key of trainee ${traineeId} is destroyed, but ${detail}: run the erasure again to finish forgetting it`);
  }
}

/**
 * An erased trainee's rows are deleted from the read store, but it could not yet clear their copies
 * from its own files (SQLite: a reader held the WAL, so it could not be truncated).
 */
export class ReadStoreNotForgotten extends ErasureUnfinished {
  constructor(traineeId: string, detail: string) {
    super(traineeId, `trainee ${traineeId} is deleted from the read store, but ${detail}: run the erasure again to finish forgetting it`);
  }
}
