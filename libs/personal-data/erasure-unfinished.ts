/** An erasure a store could not finish in time: a copy of what was deleted may remain in its files until the erasure is run again. */
export class ErasureUnfinished extends Error {
  constructor(
    readonly traineeId: string,
    message: string,
  ) {
    super(message);
  }
}

/** SQLite: a reader held the WAL, so it could not be truncated. */
export class DataKeyNotForgotten extends ErasureUnfinished {
  constructor(traineeId: string, detail: string) {
    super(traineeId, `the data key of trainee ${traineeId} is destroyed, but ${detail}: run the erasure again to finish forgetting it`);
  }
}

/** SQLite: a reader held the WAL, so it could not be truncated. */
export class ReadStoreNotForgotten extends ErasureUnfinished {
  constructor(traineeId: string, detail: string) {
    super(traineeId, `trainee ${traineeId} is deleted from the read store, but ${detail}: run the erasure again to finish forgetting it`);
  }
}
