import type { Worker } from 'node:worker_threads';
import type { RegistrationClaim } from '@app/trainees/write';
import { startWorker } from './start-worker';

/** A message to the key writer thread. */
export type ToKeyWriter =
  | { type: 'reserve'; id: number; entries: { traineeId: string; wrapped: Uint8Array }[] }
  | { type: 'ensure'; id: number; traineeId: string; wrapped: Uint8Array }
  | { type: 'writeReservation'; id: number; name: string; version: number; claims: RegistrationClaim[] }
  /** Closes the thread's connection (after the writes before it) and ends the thread. */
  | { type: 'close'; id: number };

/**
 * A message from the key writer thread: a request done (an `ensure` with the stored key, or null
 * once erased; a `writeReservation` with whether it was written), or failed with its error's
 * message and `code` (SQLite's or Node's, so that a storage fault is told as one: `storageFaultOf`).
 */
export type FromKeyWriter =
  | { type: 'done'; id: number; stored?: Uint8Array | null; written?: boolean }
  | { type: 'failed'; id: number; message: string; code?: string };

/**
 * The key store's writes of new keys in a thread of their own (`data-key-writer.worker`): a pool
 * of 256 keys in one durable write, whose sync would otherwise hold the API's thread (2.7 ms
 * median, 6.7 ms at worst; docs/DESIGN.md "Personal data"),
 * the key of a trainee written before sealing, and each create's registration claim (docs/DESIGN.md
 * property 3), one durable write each. Reads and erasures stay on the caller's connection.
 */
export class DataKeyWriter {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (done: FromKeyWriter & { type: 'done' }) => void; reject: (error: Error) => void }
  >();
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  /** Starts the thread on the key store file `file` (created by the caller's connection first). */
  constructor(file: string) {
    this.worker = startWorker(__dirname, 'data-key-writer', { file });
    this.worker.on('message', (message: FromKeyWriter) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === 'done') waiting?.resolve(message);
      else
        waiting?.reject(
          Object.assign(new Error(`storing data keys failed: ${message.message}`), message.code ? { code: message.code } : {}),
        );
    });
    this.worker.on('error', (error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Stores `entries` as `DataKeyStore.reserve` does; resolves once they are durable. */
  async reserve(entries: ReadonlyArray<{ traineeId: string; wrapped: Buffer }>): Promise<void> {
    await this.request((id) => ({
      type: 'reserve',
      id,
      entries: entries.map((e) => ({ traineeId: e.traineeId, wrapped: new Uint8Array(e.wrapped) })),
    }));
  }

  /** Does what `DataKeyStore.ensure` does: the trainee's stored key (`wrapped` when it had none), or `erased`; resolves once durable. */
  async ensure(traineeId: string, wrapped: Buffer): Promise<Buffer | 'erased'> {
    const { stored } = await this.request((id) => ({ type: 'ensure', id, traineeId, wrapped: new Uint8Array(wrapped) }));
    return stored ? Buffer.from(stored) : 'erased';
  }

  /** Does what `RegistrationReservations.writeReservation` does; resolves once durable, with whether it was written. */
  async writeReservation(name: string, version: number, claims: readonly RegistrationClaim[]): Promise<boolean> {
    const { written } = await this.request((id) => ({ type: 'writeReservation', id, name, version, claims: [...claims] }));
    return written === true;
  }

  /** Lets the writes asked for finish, closes the thread's connection and waits for the thread to end. */
  async close(): Promise<void> {
    await this.request((id) => ({ type: 'close', id })).catch(() => undefined);
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
    await this.worker.terminate();
  }

  private request(message: (id: number) => ToKeyWriter): Promise<FromKeyWriter & { type: 'done' }> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(message(id));
    });
  }
}
