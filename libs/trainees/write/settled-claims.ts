/**
 * Claims released once settled, so the key store and its backups cannot confirm an erased trainee's details (docs/DESIGN.md
 * "Registration reservations"). Safe: a create writes its claim within {@link CLAIM_WRITE_WITHIN_MS} of reading the reservation, and a
 * claim goes {@link SETTLED_CLAIM_AGE_MS} after its write, its trainee projected, where the read model's duplicate query finds it.
 */
import { loadTraineeState } from './handle-trainee-command';
import type { NamedClaim } from './registration-reservations.port';
import type { TraineeWritePorts } from './trainee-write.ports';

export const SETTLED_CLAIM_AGE_MS = 60_000;
/** The longest a create may take from its start to writing its claim (else 409). */
export const CLAIM_WRITE_WITHIN_MS = 20_000;
/** After every claim's time (ISO 8601 strings compare in time order). */
const END_OF_TIME = '9999-12-31T23:59:59.999Z';
const CLAIMS_PER_READ = 500;

type ReleasePorts = Pick<TraineeWritePorts, 'reservations' | 'trainees' | 'eventStore' | 'clock'>;

/**
 * Releases claims older than {@link SETTLED_CLAIM_AGE_MS} whose trainee is projected, erased or never written; keeps those written
 * and not yet projected. Returns the counts.
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

/** Projected, erased, or never written. */
async function settled(ports: ReleasePorts, traineeId: string): Promise<boolean> {
  if ((await ports.trainees.getTrainee(traineeId)) !== null) return true;
  return !(await loadTraineeState(ports.eventStore, traineeId)).exists;
}

/**
 * This process's release runs: {@link SettledClaimRelease.soon} after a claim arms one run (one unref'd timer at a time); a run that
 * leaves claims arms the next. `runNow` at start releases what an earlier process left.
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

  /** True when a claim is left. */
  private async releaseAndLook(): Promise<boolean> {
    try {
      await releaseSettledClaims(this.ports);
      return (await this.ports.reservations.claimsMadeBefore(END_OF_TIME, 1)).length > 0;
    } catch (error) {
      this.onFailed(error);
      return true;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
