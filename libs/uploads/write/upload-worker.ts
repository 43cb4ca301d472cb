/**
 * The uploads' background work in this process: one upload at a time, in the order asked
 * (`runUploadWork`: check a received file, write a submitted one). At start it looks for the
 * uploads a stop left unfinished and does them (docs/DESIGN.md property 4: a 2xx survives a
 * `kill -9`). A failure is logged without the file's content and tried again at the next start.
 */
import { readUpload } from './upload-stream';
import { unsettledUploads } from './upload-list';
import { runUploadWork } from './upload-operations';
import { uploadWork } from '@app/uploads/decider';
import type { UploadPorts } from './upload.ports';

/** Where the worker reports a failure: the upload id and the error's name and message only. */
export type UploadWorkFailed = (uploadId: string, error: unknown) => void;

export class UploadWorker {
  private readonly queue: string[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly ports: UploadPorts,
    private readonly onFailed: UploadWorkFailed,
  ) {}

  /** Asks for the work left on `uploadId`, after the work already asked for. */
  enqueue(uploadId: string): void {
    // The upload in hand is not in the queue: asked again, it runs again after (a submit recorded as its check ended).
    if (this.stopped || this.queue.includes(uploadId)) return;
    this.queue.push(uploadId);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /**
   * Finds the uploads with work left (received and not checked, submitted and not written) among
   * the ledger's unsettled ones and asks for it; returns how many.
   */
  async resume(): Promise<number> {
    let found = 0;
    for (const id of await unsettledUploads(this.ports)) {
      const { state } = await readUpload(this.ports, id);
      if (uploadWork(state) !== null) {
        this.enqueue(id);
        found++;
      }
    }
    return found;
  }

  /** Resolves once nothing is queued or running (tests, a clean stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no more work and waits for the upload in hand (its next rows are a later start's). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    await this.idle();
  }

  private async drain(): Promise<void> {
    for (let id = this.queue.shift(); id !== undefined; id = this.queue.shift()) {
      try {
        await runUploadWork(this.ports, id);
      } catch (error) {
        this.onFailed(id, error);
      }
    }
  }
}
