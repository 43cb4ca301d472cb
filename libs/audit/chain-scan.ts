import { eventHash, readChainKeys, type StoredEventText } from '@app/event-sourcing';
import type { SignedHead } from './digest-check';

/**
 * The check of the log's chains in the order the log stores its events (by position), one range
 * of positions at a time, for a store that reads fastest in that order (the embedded log: a
 * sequential scan reads its rows about 2.7 times as fast as the stream-id index). The fast path of `verifyInThreads` (docs/DESIGN.md
 * "Verifiable history"): it proves intact streams intact, and names the others *suspect*, to be
 * checked whole, stream by stream, by `checkStreamChain` and `checkAgainstDigest`, which say what
 * is wrong. So the faults found are the stream-order check's, whatever the order of reading.
 *
 * Within a range each event's hash is recomputed from its stored texts and the hash of the
 * stream's event before it (or, for the first of a stream in the range, the `previousHash` it
 * stores, which {@link mergeScans} then holds to the earlier range's head).
 */

/** What one range's scan knows of a stream it met. */
export interface ScannedStream {
  /** The revision of its first event in the range, and the previous hash that event stores (null at revision 0). */
  firstRevision: number;
  firstPrevious: string | null;
  /** The chain rule of its first event in the range (`ChainVersion`: 0 for none). */
  firstVersion: number;
  /** The revision and hash of its last event in the range, and the newest chain rule of its events (0: none chained). */
  lastRevision: number;
  lastHash: string;
  version: number;
  /** With a digest: the hash of its event at the signed revision, when the range holds it. */
  signedHash?: string;
}

/** What a scan of one range found (structured-cloneable: a thread posts it). */
export interface ScanResult {
  events: number;
  streams: Map<string, ScannedStream>;
  /** Streams that are not intact as read, or not as the digest signed them: to be checked whole. */
  suspects: Set<string>;
}

/** A digest to hold the log to, as `verifyLog` takes it. */
export interface ScanDigest {
  position: number;
  heads: ReadonlyMap<string, SignedHead>;
}

/** One range's scan: {@link add} its events in position order, then take the {@link result}. */
export class ChainScan {
  private readonly streams = new Map<string, ScannedStream>();
  private readonly suspects = new Set<string>();
  private events = 0;

  constructor(private readonly digest: ScanDigest | null = null) {}

  /** Checks the next event of the range (positions rising). */
  add(e: StoredEventText & { position: number }): void {
    this.events++;
    const id = e.streamId;
    const keys = readChainKeys(e.metadata);
    const known = this.streams.get(id);
    if (known === undefined) {
      // A stream's first event in the range: at revision 0 it links to nothing; later, to the
      // previous hash it stores (held to the earlier range's head by mergeScans). An event stored
      // before the chain cannot be hashed without the events before it: checked whole.
      if (e.revision !== 0 && keys.hash === null) this.suspects.add(id);
      const previous = e.revision === 0 ? null : (keys.previousHash ?? null);
      const hash = eventHash(previous, e, keys);
      if (keys.hash !== null && (keys.hash !== hash || (keys.previousHash ?? null) !== previous)) this.suspects.add(id);
      const s: ScannedStream = {
        firstRevision: e.revision,
        firstPrevious: previous,
        firstVersion: keys.version,
        lastRevision: e.revision,
        lastHash: hash,
        version: keys.version,
      };
      this.streams.set(id, s);
      this.againstDigest(e, s, hash);
      return;
    }
    const hash = eventHash(known.lastHash, e, keys);
    const intact =
      e.revision === known.lastRevision + 1 &&
      keys.version >= known.version &&
      (keys.hash === null || (keys.hash === hash && keys.previousHash === known.lastHash));
    if (!intact) this.suspects.add(id);
    known.lastRevision = e.revision;
    known.lastHash = hash;
    known.version = Math.max(known.version, keys.version);
    this.againstDigest(e, known, hash);
  }

  /** What the digest says of `e`: an event inside a signed part stored after the digest, or in a stream it does not hold, is suspect. */
  private againstDigest(e: StoredEventText & { position: number }, s: ScannedStream, hash: string): void {
    if (this.digest === null) return;
    const signed = this.digest.heads.get(e.streamId);
    if (signed === undefined) {
      if (e.position <= this.digest.position) this.suspects.add(e.streamId);
      return;
    }
    if (e.revision <= signed.revision && e.position > this.digest.position) this.suspects.add(e.streamId);
    if (e.revision === signed.revision) s.signedHash = hash;
  }

  /** What the range showed. */
  result(): ScanResult {
    return { events: this.events, streams: this.streams, suspects: this.suspects };
  }
}

/** The streams of every range joined: each stream's head, and the streams to check whole. */
export interface MergedScan {
  events: number;
  /** Every stream met, with its last event's revision (`lastRevision`) and hash (`lastHash`); suspect ones as read. */
  streams: Map<string, ScannedStream>;
  suspects: Set<string>;
  /** Streams the digest holds that no range met: gone from the log. */
  gone: string[];
}

/**
 * Joins the scans of consecutive ranges (in position order), into the first range's maps (the
 * results are consumed): a stream met in a later range must go on from its head in the earlier one
 * (the next revision, chained to its hash, by a rule no older than its head's), and one met first
 * at a revision other than 0 lacks its beginning; either is suspect. With `digest`, a stream whose event at the signed revision is not
 * the signed hash is suspect too.
 */
export function mergeScans(results: readonly ScanResult[], digest: ScanDigest | null = null): MergedScan {
  const merged = results[0]?.streams ?? new Map<string, ScannedStream>();
  const suspects = results[0]?.suspects ?? new Set<string>();
  let events = results[0]?.events ?? 0;
  for (const [id, s] of merged) if (s.firstRevision !== 0) suspects.add(id);
  for (const r of results.slice(1)) {
    events += r.events;
    for (const id of r.suspects) suspects.add(id);
    for (const [id, s] of r.streams) {
      const before = merged.get(id);
      if (before === undefined) {
        if (s.firstRevision !== 0) suspects.add(id);
        merged.set(id, s);
        continue;
      }
      if (s.firstRevision !== before.lastRevision + 1 || s.firstPrevious !== before.lastHash || s.firstVersion < before.version)
        suspects.add(id);
      before.lastRevision = s.lastRevision;
      before.lastHash = s.lastHash;
      before.version = Math.max(before.version, s.version);
      if (s.signedHash !== undefined) before.signedHash = s.signedHash;
    }
  }
  const gone: string[] = [];
  if (digest) {
    for (const [id, signed] of digest.heads) {
      const s = merged.get(id);
      if (s === undefined) gone.push(id);
      else if (s.signedHash !== signed.hash) suspects.add(id);
    }
  }
  return { events, streams: merged, suspects, gone };
}
