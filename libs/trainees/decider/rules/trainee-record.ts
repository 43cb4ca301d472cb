/** One pass of the trainee record rules, read through the helpers that make "blank", "required" and "unknown code" one thing. */
import type { RefListName, RefLists, School, TraineeDetails, TraineeFields } from '@app/trainees/record';
import type { CodeBook, TraineeRules } from '../trainee.rules';
import { BLANK, unknownCode, type MessageList, type MessagePath, type ProblemDetail } from './request-data';

/** What the trainee rules need from outside: the version's rules, today, the schools the placements name. */
export interface TraineeRuleContext {
  rules: TraineeRules;
  /** `YYYY-MM-DD`, UTC. */
  today: string;
  /** The directory's schools of the URNs the nested placements name. */
  schools?: ReadonlyMap<string, School>;
}

/** The write a record comes from (docs/reference/API-FACTS.md §6 create, §7 update). */
export interface TraineeWrite {
  mode: 'create' | 'update';
  /** The request's own fields (partner and school keys are read from here, §6.8). */
  request: TraineeFields;
  stored?: TraineeDetails;
  /** Whether to apply the "degrees required for this route" rule, and with how many degrees. */
  degreesForRequiredRule: number | null;
}

/** Blank as the wire checks leave a value: absent, null or `''` (libs/trainees/record/field-table.ts). */
export function isBlank(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

/** Ruby's `squish`, as the reference stores names, email and statsagency_id (docs/reference/API-FACTS.md §6.7). */
export function squish(s: string): string {
  return s.trim().replace(/\s+/g, ' ');
}

/** One record under the rules (on update, the merged record); each helper adds at most one message to `messages`. */
export class TraineeRecord {
  readonly rules: TraineeRules;
  readonly codes: CodeBook;
  readonly today: string;
  readonly schools: ReadonlyMap<string, School> | undefined;

  constructor(
    readonly fields: TraineeFields,
    ctx: TraineeRuleContext,
    readonly write: TraineeWrite,
    readonly messages: MessageList,
  ) {
    this.rules = ctx.rules;
    this.codes = ctx.rules.codes;
    this.today = ctx.today;
    this.schools = ctx.schools;
  }

  label(field: string): string {
    return this.rules.label(field);
  }

  /** Adds one message under `path` (a field, a `rule:` name or a nested item's field), with what it is about when said. */
  add(path: MessagePath, message: string, detail?: ProblemDetail): void {
    this.messages.add(path, message, detail);
  }

  /** True when the wire checks refused `field`: its rules are skipped and it does not count as blank. */
  invalid(field: string): boolean {
    return this.messages.invalid.has(field);
  }

  /** Presence (docs/reference/API-FACTS.md §6.3): false, with "<label> can't be blank", when blank and not refused already. */
  required(field: keyof TraineeFields): boolean {
    if (!isBlank(this.fields[field]) || this.invalid(field)) return true;
    this.add([field], `${this.label(field)} can't be blank`, BLANK);
    return false;
  }

  /** The entry of `value` in `list`; undefined when refused, blank ("can't be blank" if required) or unknown (§6.9's message). */
  code<L extends RefListName>(
    field: keyof TraineeFields,
    list: L,
    isRequired: boolean,
    value: unknown = this.fields[field],
  ): RefLists[L] | undefined {
    if (this.invalid(field)) return undefined;
    if (isBlank(value)) {
      if (isRequired) this.add([field], `${this.label(field)} can't be blank`, BLANK);
      return undefined;
    }
    const entry = this.codes.lookup(list, value);
    if (!entry) this.add([field], this.codes.unknownCodeMessage(this.label(field), value, list), unknownCode(value, list));
    return entry;
  }

  /** The entry without any message, even for a refused field: several rules read a code before its own check. */
  lookup<L extends RefListName>(list: L, value: unknown): RefLists[L] | undefined {
    return isBlank(value) ? undefined : this.codes.lookup(list, value);
  }

  /** A free-text field as stored: its value as sent, or null when blank or all white space (§6.7). */
  text(field: keyof TraineeFields): string | null {
    const v = this.fields[field];
    return typeof v === 'string' && v.trim() !== '' ? v : null;
  }
}
