/**
 * A trainee's answer in one API version kept as a patch over its answer in another (docs/DESIGN.md "Answers stored as bytes"): the two
 * differ in a few fields, so the patch is a few hundred bytes where the answer is several KB. The patch copies runs of the base's bytes
 * and inserts the rest; runs are found by Myers' difference algorithm ("An O(ND) Difference Algorithm and Its Variations", 1986) over
 * the answers' tokens, each token ending after a comma (JSON's separator), so a field that differs is one token to insert.
 *
 * Patch bytes: ops one after another, each a tag byte then unsigned 32-bit little-endian numbers: `0, offset, length` copies
 * `base[offset, offset + length)`; `1, length` then `length` bytes inserts those.
 */

const COMMA = 0x2c;
const COPY = 0;
const INSERT = 1;

/**
 * The tokens of `buf[from, to)`: `ends[i]` where token i ends (it starts at `ends[i - 1]`, or `from`), each after a comma or at `to`;
 * `ids[i]` its FNV-1a hash, so equal tokens have equal ids (unequal ones rarely do: {@link answerPatch} checks its patch).
 */
function tokens(buf: Buffer, from: number, to: number): { ends: number[]; ids: number[] } {
  const ends: number[] = [];
  const hashes: number[] = [];
  let hash = FNV_OFFSET;
  for (let i = from; i < to; i++) {
    const byte = buf[i];
    hash = Math.imul(hash ^ byte, FNV_PRIME);
    if (byte === COMMA) {
      ends.push(i + 1);
      hashes.push(hash);
      hash = FNV_OFFSET;
    }
  }
  if (to > from && (ends.length === 0 || ends[ends.length - 1] !== to)) {
    ends.push(to);
    hashes.push(hash);
  }
  return { ends, ids: hashes };
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * For each token of `b[bFrom, bTo)`, in order: the token of `a[aFrom, aTo)` it equals on a shortest edit path, or -1 where it is
 * inserted; null when that path needs more than `maxEdits` insertions and deletions.
 */
function matches(a: number[], b: number[], aFrom: number, aTo: number, bFrom: number, bTo: number, maxEdits: number) {
  const n = aTo - aFrom;
  const m = bTo - bFrom;
  const offset = maxEdits + 1;
  // Plain arrays: a small typed array costs microseconds to allocate (its own backing store), and one is copied per edit.
  const v: number[] = new Array<number>(2 * offset + 1).fill(0);
  const trace: number[][] = [];
  for (let d = 0; d <= maxEdits; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[aFrom + x] === b[bFrom + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, offset, n, m, d, (x2, y2) => a[aFrom + x2] === b[bFrom + y2]);
    }
  }
  return null;
}

/** Walks the saved frontiers back from (n, m) at `d` edits; the match of each of b's tokens (-1: inserted). */
function backtrack(trace: number[][], offset: number, n: number, m: number, d: number, equal: (x: number, y: number) => boolean) {
  const match: number[] = new Array<number>(m).fill(-1);
  let x = n;
  let y = m;
  for (let e = d; e > 0; e--) {
    const v = trace[e];
    const k = x - y;
    const prevK = k === -e || (k !== e && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = v[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) match[--y] = --x;
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0 && equal(x - 1, y - 1)) match[--y] = --x;
  return match;
}

/**
 * The patch that makes `target` from `base`, or null when none pays: the answers differ in more than `maxEdits` tokens, or the patch
 * would be more than half of `target` (or, by a hash collision, would not make it).
 */
export function answerPatch(base: Buffer, target: Buffer, maxEdits = 64): Buffer | null {
  // The common head and tail compared natively, then tokens only between them.
  const head = commonHead(base, target);
  const tail = commonTail(base, target, head);
  const aTo = base.length - tail;
  const bTo = target.length - tail;
  const { ends: aEnds, ids: a } = tokens(base, head, aTo);
  const { ends: bEnds, ids: b } = tokens(target, head, bTo);
  const match = matches(a, b, 0, a.length, 0, b.length, Math.min(maxEdits, a.length + b.length));
  if (match === null) return null;
  const ops: Buffer[] = [];
  let size = 0;
  const copy = (offset: number, length: number) => {
    if (length === 0) return;
    const op = Buffer.allocUnsafe(9);
    op[0] = COPY;
    op.writeUInt32LE(offset, 1);
    op.writeUInt32LE(length, 5);
    ops.push(op);
    size += 9;
  };
  copy(0, head);
  const aStart = (i: number) => (i === 0 ? head : aEnds[i - 1]);
  const bStart = (j: number) => (j === 0 ? head : bEnds[j - 1]);
  for (let j = 0; j < b.length;) {
    let end = j + 1;
    if (match[j] === -1) {
      while (end < b.length && match[end] === -1) end++;
      const bytes = target.subarray(bStart(j), bEnds[end - 1]);
      const op = Buffer.allocUnsafe(5);
      op[0] = INSERT;
      op.writeUInt32LE(bytes.length, 1);
      ops.push(op, bytes);
      size += 5 + bytes.length;
    } else {
      while (end < b.length && match[end] === match[end - 1] + 1) end++;
      copy(aStart(match[j]), aEnds[match[end - 1]] - aStart(match[j]));
    }
    j = end;
  }
  copy(aTo, tail);
  if (size * 2 > target.length) return null;
  const patch = Buffer.concat(ops, size);
  // Two unequal tokens of one hash would copy the wrong bytes: then no patch.
  return applyAnswerPatch(base, patch).equals(target) ? patch : null;
}

/** The length of the longest common prefix of `a` and `b`, ended after a comma (or 0): a binary search of native comparisons. */
function commonHead(a: Buffer, b: Buffer): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.compare(b, 0, mid, 0, mid) === 0) lo = mid;
    else hi = mid - 1;
  }
  if (lo === a.length && lo === b.length) return lo;
  // From 0, `lastIndexOf` would search from the end.
  return lo === 0 ? 0 : a.lastIndexOf(COMMA, lo - 1) + 1;
}

/** The length of the longest common suffix of `a` and `b` not reaching into their first `head` bytes, started after a comma (or 0). */
function commonTail(a: Buffer, b: Buffer, head: number): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length) - head;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.compare(b, b.length - mid, b.length, a.length - mid, a.length) === 0) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0 || a[a.length - lo - 1] === COMMA) return lo;
  const comma = a.indexOf(COMMA, a.length - lo);
  return comma === -1 ? 0 : a.length - comma - 1;
}

/** `target` again from `base` and {@link answerPatch}'s patch; throws on a patch that does not fit `base`. */
export function applyAnswerPatch(base: Buffer, patch: Buffer): Buffer {
  const parts: Buffer[] = [];
  let size = 0;
  for (let i = 0; i < patch.length;) {
    if (patch[i] === COPY) {
      const offset = patch.readUInt32LE(i + 1);
      const length = patch.readUInt32LE(i + 5);
      if (offset + length > base.length) throw new RangeError('answer patch: a copy past the base');
      parts.push(base.subarray(offset, offset + length));
      size += length;
      i += 9;
    } else if (patch[i] === INSERT) {
      const length = patch.readUInt32LE(i + 1);
      if (i + 5 + length > patch.length) throw new RangeError('answer patch: an insert past the patch');
      parts.push(patch.subarray(i + 5, i + 5 + length));
      size += length;
      i += 5 + length;
    } else throw new RangeError('answer patch: an unknown op');
  }
  return Buffer.concat(parts, size);
}
