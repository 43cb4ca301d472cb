import type { Worker } from 'node:worker_threads';
import { startWorker } from './start-worker';

export type ToUploadWriter =
  | { type: 'put'; id: number; uploadId: string; part: string; bytes: Uint8Array }
  | { type: 'delete'; id: number; uploadId: string }
  /** After the writes before it. */
  | { type: 'close'; id: number };

/** A delete's done answers how many parts it deleted. */
export type FromUploadWriter =
  { type: 'done'; id: number; deleted?: number } | { type: 'failed'; id: number; name: string; message: string };

/** The upload store's writes on a thread of their own, so the API's thread waits on no sync (docs/DESIGN.md "Uploads"); reads stay here. */
export class UploadFilesWriter {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (done: FromUploadWriter & { type: 'done' }) => void; reject: (error: Error) => void }
  >();
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  /** `file` made by the caller's connection first; deletes wait `forgetWithinMs` at most for the WAL. */
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

  /** Resolves once durable. */
  async put(uploadId: string, part: string, bytes: Uint8Array): Promise<void> {
    const copy = new Uint8Array(bytes);
    await this.request((id) => ({ type: 'put', id, uploadId, part, bytes: copy }), [copy.buffer]);
  }

  /** Its WAL truncated. */
  async delete(uploadId: string): Promise<number> {
    return (await this.request((id) => ({ type: 'delete', id, uploadId }))).deleted ?? 0;
  }

  /** Lets the writes asked for finish first. */
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
