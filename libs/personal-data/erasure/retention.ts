import type { TraineeEnding, TraineeReadModel } from '@app/trainees/read';
import type { Trainee } from '@app/trainees/record';
import { eraseTrainee, type ErasurePorts } from './erase-trainee';

/** The retention policy (docs/operations.md "Retention"): what `admin retention apply` finds and erases. */

export const RETENTION_PAGE = 1000;

/** `YYYY-MM-DD`, UTC: the award's date, the withdrawal's, else the planned ITT end date. The read models' `TraineeEnding.ended_on`. */
export function courseEndedOn(t: Trainee): string {
  if (t.state === 'awarded' && t.awarded_at) return t.awarded_at.slice(0, 10);
  if (t.state === 'withdrawn' && t.withdrawal) return t.withdrawal.date;
  return t.details.itt_end_date;
}

/** Why `value` cannot be the cut-off (a real date `YYYY-MM-DD`, not after `today`), or null. */
export function cutoffProblem(value: string, today: string): string | null {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    return 'not a date YYYY-MM-DD';
  if (value > today) return 'after today: a course that ends later has not ended';
  return null;
}

/** In trainee-id order, read a page at a time. */
export async function endedBefore(trainees: Pick<TraineeReadModel, 'listEndings'>, cutoff: string): Promise<TraineeEnding[]> {
  const due: TraineeEnding[] = [];
  for (let after: string | null = null; ;) {
    const page = await trainees.listEndings(after, RETENTION_PAGE);
    for (const t of page) if (t.ended_on < cutoff) due.push(t);
    if (page.length < RETENTION_PAGE) return due;
    after = page[page.length - 1].trainee_id;
  }
}

/** `failures`: `<trainee id>: <why>` each. */
export interface RetentionRun {
  erased: number;
  failures: string[];
}

/** Erases each of `due`; a failure is reported and the run goes on (a rerun finishes it). `onEach` is told after each trainee. */
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
