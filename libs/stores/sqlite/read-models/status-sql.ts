import { STATUS_FILTERS, STATUS_RULES, type StatusFilter, type StatusRule } from '@app/trainees/read';

/** A state's SQL literal: the states are the fixed codes of `TraineeStatus` (lower case and `_`), never request text. */
function literal(state: string): string {
  if (!/^[a-z_]+$/.test(state)) throw new Error(`not a trainee state: ${state}`);
  return `'${state}'`;
}

/** The SQL condition of one `status` rule over the trainee table's `state` and `itt_start_date` columns. */
function statusSql({ states, start }: StatusRule): string {
  const conditions = [
    'notIn' in states
      ? `state NOT IN (${states.notIn.map(literal).join(', ')})`
      : states.in.length === 1
        ? `state = ${literal(states.in[0])}`
        : `state IN (${states.in.map(literal).join(', ')})`,
  ];
  if (start === 'after_today') conditions.push('itt_start_date > @today');
  if (start === 'on_or_before_today') conditions.push('itt_start_date <= @today');
  return `(${conditions.join(' AND ')})`;
}

/**
 * The SQL condition of each `status` filter value, made once, at module load, from the trainee
 * wing's rule (`STATUS_RULES`, docs/reference/API-FACTS.md §14.4); `@today` is the query's
 * `YYYY-MM-DD`, UTC. Dates are `YYYY-MM-DD` text, so text order is date order.
 */
export const STATUS_SQL: Readonly<Record<StatusFilter, string>> = Object.fromEntries(
  STATUS_FILTERS.map((status) => [status, statusSql(STATUS_RULES[status])]),
) as Record<StatusFilter, string>;
