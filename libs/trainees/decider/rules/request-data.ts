/**
 * What the decider receives from a request body: its `data` after the wire checks of the API's
 * contract (libs/trainees/contract: types, formats, lengths, codes of single fields), as typed
 * fields plus the problems those checks found. The decider adds the rules that need the record,
 * other fields, the stored trainee or today, and reports every message together in one stable order
 * (docs/DESIGN.md ruling 4: one entry per failed rule).
 */

/** Where a message belongs: a field (`['email']`) or a nested item's field (`['degrees_attributes', 0, 'subject']`). */
export type MessagePath = readonly (string | number)[];

/** One failed rule: where, and the message as the client reads it (docs/reference/API-FACTS.md §5.2). */
export interface InputProblem {
  readonly path: MessagePath;
  readonly message: string;
}

/**
 * A request's `data` after its wire checks. `missing`: no `data`, an empty one, one that is not an
 * object, or (on a trainee create) one holding no key the version accepts (docs/reference/API-FACTS.md
 * §5.1). Otherwise the well-formed fields (a field that failed its check is left out) and the problems.
 */
export type RequestData<F> =
  { readonly kind: 'missing' } | { readonly kind: 'data'; readonly fields: F; readonly problems: readonly InputProblem[] };

/** The fields of a request, for tests and for bodies that passed every wire check. */
export function requestData<F>(fields: F, problems: readonly InputProblem[] = []): RequestData<F> {
  return { kind: 'data', fields, problems };
}

/** The request's `data` was missing or empty. */
export const MISSING_REQUEST_DATA: RequestData<never> = { kind: 'missing' };

/**
 * Collects messages from the wire checks and the decider's rules and answers them in the order the
 * rules are listed (`order`: one list of names per path level; numbers, such as item indexes, sort
 * by value), each message once: two nested degrees missing a subject give one
 * `subject must be entered…` message, since nested messages carry no item prefix
 * (docs/reference/API-FACTS.md §5.2).
 */
export class MessageList {
  private readonly entries: { path: MessagePath; message: string; seq: number }[] = [];
  /** Top-level fields the wire checks found bad: a rule on them is skipped, and they are not "blank". */
  readonly invalid: ReadonlySet<string>;

  constructor(problems: readonly InputProblem[] = []) {
    for (const p of problems) this.add(p.path, p.message);
    this.invalid = new Set(problems.map((p) => String(p.path[0])));
  }

  add(path: MessagePath, message: string): void {
    this.entries.push({ path, message, seq: this.entries.length });
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
    return [...new Set(sorted.map((e) => e.message))];
  }
}
