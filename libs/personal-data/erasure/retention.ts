import type { TraineeEnding, TraineeReadModel } from '@app/trainees/read';
import type { Trainee } from '@app/trainees/record';
import { eraseTrainee, type ErasurePorts } from './erase-trainee';

/**
 * The retention policy (docs/operations.md "Retention"): a trainee whose course ended before a date
 * is erased, as `trainee erase` erases one on request. What `admin retention apply` finds and does.
 */

/** Trainees read from the read model per page while the policy looks for those to erase. */
export const RETENTION_PAGE = 1000;

/**
 * The date a trainee's course ended, for the retention policy: the award's date when awarded, the
 * withdrawal's when withdrawn, else its ITT end date (the course's planned end, whether or not it
 * has passed). `YYYY-MM-DD`, UTC. What the read models answer as `TraineeEnding.ended_on`.
 */
export function courseEndedOn(t: Trainee): string {
  if (t.state === 'awarded' && t.awarded_at) return t.awarded_at.slice(0, 10);
  if (t.state === 'withdrawn' && t.withdrawal) return t.withdrawal.date;
  return t.details.itt_end_date;
}

/**
 * Why `value` cannot be the policy's cut-off, or null when it can: a real calendar date
 * `YYYY-MM-DD`, not after `today` (`YYYY-MM-DD`, UTC): a course that ends later has not ended.
 */
export function cutoffProblem(value: string, today: string): string | null {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    return 'not a date YYYY-MM-DD';
  if (value > today) return 'after today: a course that ends later has not ended';
  return null;
}

/** Every trainee of the read model whose course ended before `cutoff` (`YYYY-MM-DD`), in trainee-id order, read a page at a time. */
export async function endedBefore(trainees: Pick<TraineeReadModel, 'listEndings'>, cutoff: string): Promise<TraineeEnding[]> {
  const due: TraineeEnding[] = [];
  for (let after: string | null = null; ;) {
    const page = await trainees.listEndings(after, RETENTION_PAGE);
    for (const t of page) if (t.ended_on < cutoff) due.push(t);
    if (page.length < RETENTION_PAGE) return due;
    after = page[page.length - 1].trainee_id;
  }
}

/** What {@link applyRetention} did: how many it erased, and each failure as `<trainee id>: <why>`. */
export interface RetentionRun {
  erased: number;
  failures: string[];
}

/**
 * Erases each trainee of `due` (`eraseTrainee`, as `by`), its reason naming the policy and when its
 * course ended; a trainee that cannot be erased is told as a failure and the run goes on (running
 * it again finishes: each erasure is safe to repeat). `onEach` is told after each trainee.
 */
export async function applyRetention(
  ports: ErasurePorts,
  due: readonly TraineeEnding[],
  cutoff: string,
  by: string,
  onEach?: () => void,
): Promise<RetentionRun> {
  const failures: string[] = [];
  for (const t of due) {
    const reason = `Retention policy: course ended ${t.ended_on}, before ${cutoff}`;
    try {
      await eraseTrainee(ports, t.trainee_id, reason, by);
    } catch (err) {
      failures.push(`${t.trainee_id}: ${err instanceof Error ? err.message : String(err)}`);
    }
    onEach?.();
  }
  return { erased: due.length - failures.length, failures };
}
