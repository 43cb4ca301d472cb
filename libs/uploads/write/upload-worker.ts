/**
 * The uploads' background work, fair between providers: each has its own queue, and the worker takes them in turn a slice of one
 * upload at a time (docs/DESIGN.md "Uploads"). At start it resumes what a stop left (property 4). A failure is logged without the
 * file's content and retried at the next start.
 */
import { uploadWork } from '@app/uploads/decider';
import { BackgroundPace, type WorkPace } from './background-pace';
import { unsettledUploads } from './upload-list';
import { runUploadWork } from './upload-operations';
import { readUpload } from './upload-stream';
import type { UploadPorts } from './upload.ports';

/** Logs the upload id and the error's name and message only. */
export type UploadWorkFailed = (uploadId: string, error: unknown) => void;

/** `pace.next()` between its rows. */
export type UploadJob = (uploadId: string, pace: WorkPace) => Promise<void>;

/** The rest is a later start's. */
class WorkerStopped extends Error {}

/** Goes on within the slice; once the slice has run its length, hands the turn back and waits for the next. */
class JobTurn implements WorkPace {
  /** Re-armed at each turn given. */
  handedBack!: Promise<void>;
  private handBack!: () => void;
  private resume: ((stopped: boolean) => void) | null = null;

  constructor(private readonly pace: BackgroundPace) {
    this.arm();
  }

  async next(): Promise<void> {
    if (!this.pace.sliceOver()) return this.pace.turn();
    const stopped = await new Promise<boolean>((resolve) => {
      this.resume = resolve;
      this.handBack();
    });
    if (stopped) throw new WorkerStopped();
  }

  /** `stopped`: the job ends. */
  give(stopped = false): void {
    const resume = this.resume;
    this.resume = null;
    this.arm();
    resume?.(stopped);
  }

  private arm(): void {
    this.handedBack = new Promise((resolve) => (this.handBack = resolve));
  }
}

interface RunningJob {
  turn: JobTurn;
  ended: Promise<'ended'>;
}

/** `options.job` and `options.pace` replace the work and its pace in tests. */
export class UploadWorker {
  /** In the order asked; the map's order is the providers' turn. */
  private readonly waiting = new Map<string, string[]>();
  private readonly jobs = new Map<string, RunningJob>();
  /** Asked again while their job ran: run again after it. */
  private readonly again = new Set<string>();
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly pace: BackgroundPace;
  private readonly job: UploadJob;

  constructor(
    private readonly ports: UploadPorts,
    private readonly onFailed: UploadWorkFailed,
    options: { job?: UploadJob; pace?: BackgroundPace } = {},
  ) {
    this.pace = options.pace ?? new BackgroundPace();
    this.job = options.job ?? ((id, pace) => runUploadWork(this.ports, id, pace));
  }

  /** After that provider's work already asked for. */
  enqueue(uploadId: string, ukprn: string): void {
    if (this.stopped) return;
    // A submit recorded as its check ended: run again after it.
    if (this.jobs.has(uploadId)) this.again.add(uploadId);
    else {
      const queue = this.waiting.get(ukprn);
      if (queue === undefined) this.waiting.set(ukprn, [uploadId]);
      else if (!queue.includes(uploadId)) queue.push(uploadId);
    }
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Among the ledger's unsettled uploads, those received and not checked or submitted and not written; how many. */
  async resume(): Promise<number> {
    let found = 0;
    for (const id of await unsettledUploads(this.ports)) {
      const { state } = await readUpload(this.ports, id);
      if (uploadWork(state) !== null) {
        this.enqueue(id, state.ukprn!);
        found++;
      }
    }
    return found;
  }

  /** Nothing queued or running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** The uploads' next rows are a later start's. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
    for (const job of this.jobs.values()) job.turn.give(true);
    await Promise.all([...this.jobs.values()].map((j) => j.ended));
    this.jobs.clear();
    this.waiting.clear();
  }

  private async drain(): Promise<void> {
    // The first slice starts now, not when the worker last had work.
    this.pace.restart();
    while (!this.stopped && this.waiting.size > 0) {
      const [ukprn, queue] = this.waiting.entries().next().value!;
      const id = queue[0];
      if ((await this.slice(id)) === 'ended') {
        queue.shift();
        if (this.again.delete(id)) queue.push(id);
      }
      this.waiting.delete(ukprn);
      if (queue.length > 0) this.waiting.set(ukprn, queue);
      await this.pace.rest();
    }
  }

  /** Starts the job when new. */
  private async slice(id: string): Promise<'ended' | 'handed back'> {
    let job = this.jobs.get(id);
    if (job === undefined) {
      const turn = new JobTurn(this.pace);
      const ended = this.job(id, turn).then(
        () => 'ended' as const,
        (error: unknown) => {
          if (!(error instanceof WorkerStopped)) this.onFailed(id, error);
          return 'ended' as const;
        },
      );
      job = { turn, ended };
      this.jobs.set(id, job);
    } else job.turn.give();
    const outcome = await Promise.race([job.ended, job.turn.handedBack.then(() => 'handed back' as const)]);
    if (outcome === 'ended') this.jobs.delete(id);
    return outcome;
  }
}
