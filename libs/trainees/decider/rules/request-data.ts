/**
 * A request body's `data` after the contract's wire checks: typed fields and their problems, answered with the decider's rules'
 * messages in one stable order (docs/DESIGN.md "The record tables", ruling 4).
 */
import type { RefListName } from '@app/trainees/record';

/** Where a message belongs: a field (`['email']`) or a nested item's field (`['degrees_attributes', 0, 'subject']`). */
export type MessagePath = readonly (string | number)[];

/**
 * What a failed rule is about, beside its message: what lets a page word it for a person without reading the message. `kind`: a
 * wire check's name (`isIsoDate`, `isCode:sex`, `maxChars`, …) or a rule's (`blank`, `unknown_code`, `funding_method_not_allowed`).
 */
export interface ProblemDetail {
  readonly kind: string;
  /** The value the rule read, as text, where it read one. */
  readonly value?: string;
  /** What the rule compared: a code list's name, other fields' values as sent, an academic cycle. */
  readonly params?: Readonly<Record<string, string>>;
}

/** A required value left blank. */
export const BLANK: ProblemDetail = { kind: 'blank' };

/** A value that is not a code of `list` (text as sent; another JSON value as its JSON). */
export function unknownCode(value: unknown, list: RefListName): ProblemDetail {
  return { kind: 'unknown_code', value: typeof value === 'string' ? value : JSON.stringify(value), params: { list } };
}

/** One failed rule: where, the message as the client reads it (docs/reference/API-FACTS.md §5.2), and what it is about. */
export interface InputProblem {
  readonly path: MessagePath;
  readonly message: string;
  readonly detail?: ProblemDetail;
}

/** `missing`: none, empty, not an object, or a create with no key the version reads (docs/reference/API-FACTS.md §5.1). */
export type RequestData<F> =
  { readonly kind: 'missing' } | { readonly kind: 'data'; readonly fields: F; readonly problems: readonly InputProblem[] };

/** The fields of a request, for tests and for bodies that passed every wire check. */
export function requestData<F>(fields: F, problems: readonly InputProblem[] = []): RequestData<F> {
  return { kind: 'data', fields, problems };
}

export const MISSING_REQUEST_DATA: RequestData<never> = { kind: 'missing' };

/**
 * The wire checks' and the rules' messages, answered in `order` (names per path level; indexes by value), each once: nested
 * messages carry no item prefix (docs/reference/API-FACTS.md §5.2), so two degrees missing a subject give one.
 */
export class MessageList {
  private readonly entries: { path: MessagePath; message: string; detail?: ProblemDetail; seq: number }[] = [];
  /** Top-level fields the wire checks found bad: a rule on them is skipped, and they are not "blank". */
  readonly invalid: ReadonlySet<string>;

  constructor(problems: readonly InputProblem[] = []) {
    for (const p of problems) this.add(p.path, p.message, p.detail);
    this.invalid = new Set(problems.map((p) => String(p.path[0])));
  }

  add(path: MessagePath, message: string, detail?: ProblemDetail): void {
    this.entries.push({ path, message, ...(detail ? { detail } : {}), seq: this.entries.length });
  }

  get isEmpty(): boolean {
    return this.entries.length === 0;
  }

  /** True when a message was recorded under `path` (or below it). */
  has(path: MessagePath): boolean {
    return this.entries.some((e) => path.every((segment, i) => e.path[i] === segment));
  }

  /** The messages sorted by `order` (stable), without repeats. */
  sorted(order: readonly (readonly string[])[]): string[] {
    return this.sortedProblems(order).map((p) => p.message);
  }

  /** The problems in the order of {@link sorted}, one per message: the first of a repeated message. */
  sortedProblems(order: readonly (readonly string[])[]): InputProblem[] {
    const key = (path: MessagePath): number[] =>
      path.map((segment, level) => {
        if (typeof segment === 'number') return segment;
        const i = order[level]?.indexOf(segment) ?? -1;
        return i < 0 ? Number.MAX_SAFE_INTEGER : i;
      });
    const sorted = [...this.entries].sort((a, b) => {
      const ka = key(a.path);
      const kb = key(b.path);
      for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
        const d = (ka[i] ?? -1) - (kb[i] ?? -1);
        if (d !== 0) return d;
      }
      return a.seq - b.seq;
    });
    const seen = new Set<string>();
    return sorted.flatMap(({ path, message, detail }) => {
      if (seen.has(message)) return [];
      seen.add(message);
      return [detail ? { path, message, detail } : { path, message }];
    });
  }
}
