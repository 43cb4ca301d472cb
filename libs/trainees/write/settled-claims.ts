/**
 * Claims released once settled, so the key store keeps a registration reservation only while a
 * create is in flight (docs/DESIGN.md "Personal data", the duplicate guard). A reservation's name
 * is a keyed hash of provider, date of birth, route and last name under a key derived from the
 * service key; kept for every trainee, a copy of the key store (a backup) together with the
 * service key would confirm an erased trainee's details long after the erasure. Once a trainee is
 * in the read model, the read model's duplicate query finds it, and its claim has done its work.
 *
 * Released claims cannot let a duplicate through: a create writes its claim within
 * {@link CLAIM_WRITE_WITHIN_MS} of starting (register-trainee.ts), so a reservation it read is at most
 * that old when it writes, and a claim is released only {@link SETTLED_CLAIM_AGE_MS} after it was
 * written (claims are stamped when written), with its trainee projected: a create that read the
 * reservation before that claim was written has written or given up by then, and one that reads
 * it after finds the trainee in the read model.
 */
import { loadTraineeState } from './handle-trainee-command';
import type { NamedClaim } from './registration-reservations.port';
import type { TraineeWritePorts } from './trainee-write.ports';

/** How long after its claim was made a projected trainee's claim is released: 60 s. */
export const SETTLED_CLAIM_AGE_MS = 60_000;
/** The longest a create may take from its start to writing its claim (else it answers 409, retry): 20 s. */
export const CLAIM_WRITE_WITHIN_MS = 20_000;
/** After every claim's time (ISO 8601 strings compare in time order). */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';
/** Claims looked at per read. */
const CLAIMS_PER_READ = 500;

type ReleasePorts = Pick<TraineeWritePorts, 'reservations' | 'trainees' | 'eventStore' | 'clock'>;

/**
 * Releases every claim made more than {@link SETTLED_CLAIM_AGE_MS} before `now` whose trainee is in the
 * read model, was erased, or was never written (its writer stopped); keeps those whose trainee is
 * written and not yet projected. Returns how many were released and kept.
 */
export async function releaseSettledClaims(ports: ReleasePorts, now = ports.clock()): Promise<{ released: number; kept: number }> {
  const before = new Date(now.getTime() - SETTLED_CLAIM_AGE_MS).toISOString();
  const kept = new Set<string>();
  let released = 0;
  for (;;) {
    const claims = (await ports.reservations.claimsMadeBefore(before, kept.size + CLAIMS_PER_READ)).filter(
      (c) => !kept.has(`${c.name} ${c.trainee_id}`),
    );
    if (claims.length === 0) return { released, kept: kept.size };
    const settledOnes: NamedClaim[] = [];
    for (const [i, claim] of claims.entries()) {
      if (await settled(ports, claim.trainee_id)) settledOnes.push(claim);
      else kept.add(`${claim.name} ${claim.trainee_id}`);
      // The reads are synchronous on SQLite: let requests in between.
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    // One write a read: on SQLite the release syncs the key store's file on this thread.
    if (settledOnes.length > 0) await ports.reservations.releaseClaims(settledOnes);
    released += settledOnes.length;
  }
}

/** Whether a claim's trainee no longer needs it: projected, erased, or never written. */
async function settled(ports: ReleasePorts, traineeId: string): Promise<boolean> {
  if ((await ports.trainees.getTrainee(traineeId)) !== null) return true;
  // Not projected: no stream (never written) or an erased one is settled; a living one waits for its projection.
  return !(await loadTraineeState(ports.eventStore, traineeId)).exists;
}

/**
 * The release runs of this process: {@link SettledClaimRelease.soon} after a claim is written arms
 * one run {@link SETTLED_CLAIM_AGE_MS} later (one timer at a time, not keeping the process alive);
 * a run that leaves claims arms the next. Nothing runs while nothing is registered; `runNow` at
 * start releases the claims an earlier process left.
 */
export class SettledClaimRelease {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** A claim was written during the run in progress: arm the next after it. */
  private again = false;
  private stopped = false;

  constructor(
    private readonly ports: ReleasePorts,
    private readonly onFailed: (error: unknown) => void,
  ) {}

  /** Arms a run after {@link SETTLED_CLAIM_AGE_MS} unless one is armed; during a run, once it ends. */
  soon(): void {
    if (this.running) this.again = true;
    if (this.stopped || this.timer || this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runNow();
    }, SETTLED_CLAIM_AGE_MS + 1_000).unref();
  }

  /** Runs once now (or joins the run in progress); arms the next while any claim is left. A failure goes to `onFailed`. */
  runNow(): Promise<void> {
    this.running ??= this.releaseAndLook().then((left) => {
      this.running = null;
      if (left || this.again) this.soon();
      this.again = false;
    });
    return this.running;
  }

  /** One run; true when a claim is left (settled later, or made meanwhile). */
  private async releaseAndLook(): Promise<boolean> {
    try {
      await releaseSettledClaims(this.ports);
      return (await this.ports.reservations.claimsMadeBefore(END_OF_TIME, 1)).length > 0;
    } catch (error) {
      this.onFailed(error);
      return true;
    }
  }

  /** Stops arming runs and waits for the one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
