import type { Worker } from 'node:worker_threads';
import type { RegistrationClaim } from '@app/trainees/write';
import { startWorker } from './start-worker';

export type ToKeyWriter =
  | { type: 'reserve'; id: number; entries: { traineeId: string; wrapped: Uint8Array }[] }
  | { type: 'ensure'; id: number; traineeId: string; wrapped: Uint8Array }
  | { type: 'writeReservation'; id: number; name: string; version: number; claims: RegistrationClaim[] }
  /** After the writes before it. */
  | { type: 'close'; id: number };

/** Done, or failed with its message and `code` (SQLite's or Node's), so a storage fault is told as one (`storageFaultOf`). */
export type FromKeyWriter =
  | { type: 'done'; id: number; stored?: Uint8Array | null; written?: boolean }
  | { type: 'failed'; id: number; message: string; code?: string };

/**
 * New keys written on a thread of their own: a pool of 256 keys per durable write, whose sync would hold the API's thread (2.7 ms
 * median, 6.7 ms at worst), a key for a trainee from before sealing, each create's registration claim. Reads and erasures stay here.
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

  /** `file` made by the caller's connection first. */
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

  /** As `DataKeyStore.reserve`; resolves once durable. */
  async reserve(entries: ReadonlyArray<{ traineeId: string; wrapped: Buffer }>): Promise<void> {
    await this.request((id) => ({
      type: 'reserve',
      id,
      entries: entries.map((e) => ({ traineeId: e.traineeId, wrapped: new Uint8Array(e.wrapped) })),
    }));
  }

  /** As `DataKeyStore.ensure`; resolves once durable. */
  async ensure(traineeId: string, wrapped: Buffer): Promise<Buffer | 'erased'> {
    const { stored } = await this.request((id) => ({ type: 'ensure', id, traineeId, wrapped: new Uint8Array(wrapped) }));
    return stored ? Buffer.from(stored) : 'erased';
  }

  /** As `RegistrationReservations.writeReservation`; resolves once durable. */
  async writeReservation(name: string, version: number, claims: readonly RegistrationClaim[]): Promise<boolean> {
    const { written } = await this.request((id) => ({ type: 'writeReservation', id, name, version, claims: [...claims] }));
    return written === true;
  }

  /** Lets the writes asked for finish first. */
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
