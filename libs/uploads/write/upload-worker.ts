/**
 * The uploads' background work in this process (`runUploadWork`: check a received file, write a
 * submitted one), shared fairly between providers: each provider with work waiting has its own queue
 * (its uploads in the order asked), and the worker takes the providers in turn, one slice of one
 * upload at a time (about 20 ms of work, `PACE_SLICE_MS` of `BackgroundPace`), so one provider's large
 * files never hold another's small one. One slice runs at a time; after each the worker rests as the
 * pace says. At start it looks for the uploads a stop left unfinished and does them (docs/DESIGN.md
 * property 4: a 2xx survives a `kill -9`). A failure is logged without the file's content and tried
 * again at the next start.
 */
import { uploadWork } from '@app/uploads/decider';
import { BackgroundPace, type WorkPace } from './background-pace';
import { unsettledUploads } from './upload-list';
import { runUploadWork } from './upload-operations';
import { readUpload } from './upload-stream';
import type { UploadPorts } from './upload.ports';

/** Where the worker reports a failure: the upload id and the error's name and message only. */
export type UploadWorkFailed = (uploadId: string, error: unknown) => void;

/** The work of one upload, run a slice at a time: `pace.next()` between its rows. */
export type UploadJob = (uploadId: string, pace: WorkPace) => Promise<void>;

/** Thrown into a job waiting for its next slice when the worker stops: the rest is a later start's. */
class WorkerStopped extends Error {}

/**
 * The turn of one upload's job: between two rows it goes on within the slice, and once the slice
 * has run its length it hands the turn back to the worker and waits until the worker gives it the
 * next one.
 */
class JobTurn implements WorkPace {
  /** Resolves when the job hands its turn back (re-armed at each turn given). */
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

  /** Gives the job its next turn (`stopped`: the worker stops, and the job ends). */
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

/** An upload's job under way: its turn, and whether it ended. */
interface RunningJob {
  turn: JobTurn;
  ended: Promise<'ended'>;
}

/**
 * The worker of this process (see the top of this file): `enqueue` asks for an upload's work,
 * `resume` finds what a stop left, `stop` ends it after the slice in hand. `options.job` and
 * `options.pace` replace the work and its pace (tests).
 */
export class UploadWorker {
  /** Each provider's uploads waiting, in the order asked; the map's order is the providers' turn. */
  private readonly waiting = new Map<string, string[]>();
  private readonly jobs = new Map<string, RunningJob>();
  /** Uploads asked again while their job ran: run again after it. */
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

  /** Asks for the work left on `uploadId` of provider `ukprn`, after that provider's work already asked for. */
  enqueue(uploadId: string, ukprn: string): void {
    if (this.stopped) return;
    // An upload whose job is under way, asked again, runs again after it (a submit recorded as its check ended).
    if (this.jobs.has(uploadId)) this.again.add(uploadId);
    else {
      const queue = this.waiting.get(ukprn);
      if (queue === undefined) this.waiting.set(ukprn, [uploadId]);
      else if (!queue.includes(uploadId)) queue.push(uploadId);
    }
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
        this.enqueue(id, state.ukprn!);
        found++;
      }
    }
    return found;
  }

  /** Resolves once nothing is queued or running (tests, a clean stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no more work and waits for the slice in hand; the uploads' next rows are a later start's. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
    for (const job of this.jobs.values()) job.turn.give(true);
    await Promise.all([...this.jobs.values()].map((j) => j.ended));
    this.jobs.clear();
    this.waiting.clear();
  }

  /** Gives each provider with work a slice in turn, until no work is left or the worker stops. */
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
      // The provider goes to the back of the turn, or leaves it with nothing left.
      this.waiting.delete(ukprn);
      if (queue.length > 0) this.waiting.set(ukprn, queue);
      await this.pace.rest();
    }
  }

  /** Runs one slice of `id`'s job (starting it when new): `ended` once the job has ended. */
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
