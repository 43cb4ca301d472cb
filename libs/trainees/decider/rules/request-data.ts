/**
 * A request body's `data` after the contract's wire checks: typed fields and their problems, answered with the decider's rules'
 * messages in one stable order (docs/DESIGN.md "The record tables", ruling 4).
 */

/** Where a message belongs: a field (`['email']`) or a nested item's field (`['degrees_attributes', 0, 'subject']`). */
export type MessagePath = readonly (string | number)[];

/** One failed rule: where, and the message as the client reads it (docs/reference/API-FACTS.md §5.2). */
export interface InputProblem {
  readonly path: MessagePath;
  readonly message: string;
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
