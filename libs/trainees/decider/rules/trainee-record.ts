/**
 * The shared context of one pass of the trainee record rules (docs/reference/API-FACTS.md §6.3–§6.10,
 * §7, §8): the record under check, the write it comes from, the version's rules, today and the
 * message list, with the few helpers every concern module (`*.rules.ts`) reads the record through,
 * so that "blank", "required" and "unknown code" mean one thing in all of them. Pure.
 */
import type { RefListName, RefLists, School, TraineeDetails, TraineeFields } from '@app/trainees/record';
import type { CodeBook, TraineeRules } from '../trainee.rules';
import type { MessageList, MessagePath } from './request-data';

/** What the trainee rules need from outside: the version's rules, today, the schools the placements name. */
export interface TraineeRuleContext {
  rules: TraineeRules;
  /** `YYYY-MM-DD`, the current date in UTC. */
  today: string;
  /** Schools of the directory for the URNs the nested placements name; none when absent. */
  schools?: ReadonlyMap<string, School>;
}

/** The write a record comes from (docs/reference/API-FACTS.md §6 create, §7 update). */
export interface TraineeWrite {
  mode: 'create' | 'update';
  /** The request's own fields (partner and school keys are read from here, §6.8). */
  request: TraineeFields;
  /** Update only: the stored record. */
  stored?: TraineeDetails;
  /** Whether to apply the "degrees required for this route" rule, and with how many degrees. */
  degreesForRequiredRule: number | null;
}

/**
 * Blank as the wire checks leave a value: absent, null or `''` (the field convention of
 * input-fields.ts). Takes any value; true when it is one of the three.
 */
export function isBlank(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

/**
 * Ruby's `squish`, as the reference implementation stores names, email and statsagency_id
 * (docs/reference/API-FACTS.md §6.7): takes a string, returns it trimmed with inner runs of white
 * space collapsed to one space.
 */
export function squish(s: string): string {
  return s.trim().replace(/\s+/g, ' ');
}

/**
 * One record under the trainee rules: `fields` (the request's on create; the stored record with
 * the request merged on update), read against `ctx` and adding to `messages`, which already holds
 * the wire problems (docs/reference/API-FACTS.md §5.2, §6.3, §6.9). Its helpers add at most one
 * message each and answer what the rules go on with.
 */
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

  /** The field's name as the client knows it (docs/reference/API-FACTS.md §5.2). */
  label(field: string): string {
    return this.rules.label(field);
  }

  /** Adds one message under `path` (a field, a `rule:` name or a nested item's field). */
  add(path: MessagePath, message: string): void {
    this.messages.add(path, message);
  }

  /** True when the wire checks refused `field`: its rules are skipped and it does not count as blank. */
  invalid(field: string): boolean {
    return this.messages.invalid.has(field);
  }

  /**
   * Required presence (docs/reference/API-FACTS.md §6.3): false, with "<label> can't be blank", when
   * `field` is blank and the wire checks did not already refuse it; true otherwise.
   */
  required(field: keyof TraineeFields): boolean {
    if (!isBlank(this.fields[field]) || this.invalid(field)) return true;
    this.add([field], `${this.label(field)} can't be blank`);
    return false;
  }

  /**
   * A coded field (docs/reference/API-FACTS.md §6.3, §6.9): the entry of `value` (the field's own
   * value unless given) in `list`; undefined when the wire checks refused the field, when it is
   * blank ("can't be blank" if `isRequired`), or when this version lacks the code (the §6.9 message).
   */
  code<L extends RefListName>(
    field: keyof TraineeFields,
    list: L,
    isRequired: boolean,
    value: unknown = this.fields[field],
  ): RefLists[L] | undefined {
    if (this.invalid(field)) return undefined;
    if (isBlank(value)) {
      if (isRequired) this.add([field], `${this.label(field)} can't be blank`);
      return undefined;
    }
    const entry = this.codes.lookup(list, value);
    if (!entry) this.add([field], this.codes.unknownCodeMessage(this.label(field), value, list));
    return entry;
  }

  /**
   * The entry of `value` in `list` without any message, whether or not the wire checks refused the
   * field: several rules read a code before (or without) the field's own check. Undefined when blank.
   */
  lookup<L extends RefListName>(list: L, value: unknown): RefLists[L] | undefined {
    return isBlank(value) ? undefined : this.codes.lookup(list, value);
  }

  /** A free-text field as stored: its value as sent, or null when blank or all white space (§6.7). */
  text(field: keyof TraineeFields): string | null {
    const v = this.fields[field];
    return typeof v === 'string' && v.trim() !== '' ? v : null;
  }
}
