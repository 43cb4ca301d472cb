import type { Worker } from 'node:worker_threads';
import { startWorker } from './start-worker';

/** A message to the upload store's writer thread. */
export type ToUploadWriter =
  | { type: 'put'; id: number; uploadId: string; part: string; bytes: Uint8Array }
  | { type: 'delete'; id: number; uploadId: string }
  /** Closes the thread's connection (after the writes before it) and ends the thread. */
  | { type: 'close'; id: number };

/**
 * A message from the writer thread: a request done (a delete with how many parts it deleted), or
 * failed with its error's name and message.
 */
export type FromUploadWriter =
  { type: 'done'; id: number; deleted?: number } | { type: 'failed'; id: number; name: string; message: string };

/**
 * The upload store's writes in a thread of their own (`upload-files-writer.worker`): each part
 * stored durably (a 1 MiB part and its sync take the writer 7 to 25 ms on a shared disk) and each
 * upload's parts deleted with its WAL truncated, so the API's thread waits on neither (docs/DESIGN.md
 * "Uploads"). Reads stay on the caller's connection.
 */
export class UploadFilesWriter {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (done: FromUploadWriter & { type: 'done' }) => void; reject: (error: Error) => void }
  >();
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  /**
   * Starts the thread on the upload store file `file` (created by the caller's connection first),
   * its deletes waiting `forgetWithinMs` at most for the WAL.
   */
  constructor(file: string, forgetWithinMs: number) {
    this.worker = startWorker(__dirname, 'upload-files-writer', { file, forgetWithinMs });
    this.worker.on('message', (message: FromUploadWriter) => {
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.type === 'done') waiting?.resolve(message);
      else waiting?.reject(Object.assign(new Error(message.message), { name: message.name }));
    });
    this.worker.on('error', (error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Stores `bytes` as the part `part` of `uploadId`; resolves once durable. */
  async put(uploadId: string, part: string, bytes: Uint8Array): Promise<void> {
    const copy = new Uint8Array(bytes);
    await this.request((id) => ({ type: 'put', id, uploadId, part, bytes: copy }), [copy.buffer]);
  }

  /** Deletes every part of `uploadId`, its WAL truncated; resolves with how many it deleted. */
  async delete(uploadId: string): Promise<number> {
    return (await this.request((id) => ({ type: 'delete', id, uploadId }))).deleted ?? 0;
  }

  /** Lets the writes asked for finish, closes the thread's connection and waits for the thread to end. */
  async close(): Promise<void> {
    await this.request((id) => ({ type: 'close', id })).catch(() => undefined);
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
    await this.worker.terminate();
  }

  private request(make: (id: number) => ToUploadWriter, transfer: ArrayBuffer[] = []): Promise<FromUploadWriter & { type: 'done' }> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(make(id), transfer);
    });
  }
}
