import { eventHash, readChainKeys, type StoredEventText, type LogPosition } from '@app/event-sourcing';
import type { SignedHead } from './digest-check';

/**
 * The chain check in position order, one range at a time, for the embedded log, where a sequential scan reads rows about 2.7 times as
 * fast as the stream-id index (docs/DESIGN.md "Verifiable history"). It proves intact streams intact and names the others suspect,
 * to be checked whole by `checkStreamChain`, so the faults found are the stream-order check's.
 */

export interface ScannedStream {
  /** Of its first event in the range, with the previous hash it stores (null at revision 0). */
  firstRevision: number;
  firstPrevious: string | null;
  /** Of its first event in the range; 0: none. */
  firstVersion: number;
  /** Of its last event in the range, with the newest chain rule of its events (0: none chained). */
  lastRevision: number;
  lastHash: string;
  version: number;
  /** With a digest: its hash at the signed revision, when the range holds it. */
  signedHash?: string;
}

/** Structured-cloneable: a thread posts it. */
export interface ScanResult {
  events: number;
  streams: Map<string, ScannedStream>;
  /** Not intact as read, or not as the digest signed them: to be checked whole. */
  suspects: Set<string>;
}

export interface ScanDigest {
  position: LogPosition;
  heads: ReadonlyMap<string, SignedHead>;
}

/** {@link add} a range's events in position order, then take the {@link result}. */
export class ChainScan {
  private readonly streams = new Map<string, ScannedStream>();
  private readonly suspects = new Set<string>();
  private events = 0;

  constructor(private readonly digest: ScanDigest | null = null) {}

  add(e: StoredEventText & { position: LogPosition }): void {
    this.events++;
    const id = e.streamId;
    const keys = readChainKeys(e.metadata);
    const known = this.streams.get(id);
    if (known === undefined) {
      // First of its stream in the range: it links to the previous hash it stores (held to the earlier range's head by mergeScans).
      // An event stored before the chain cannot be hashed without those before it: checked whole.
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

  /** Inside a signed part but stored after the digest, or in a stream it does not hold: suspect. */
  private againstDigest(e: StoredEventText & { position: LogPosition }, s: ScannedStream, hash: string): void {
    if (this.digest === null) return;
    const signed = this.digest.heads.get(e.streamId);
    if (signed === undefined) {
      if (e.position <= this.digest.position) this.suspects.add(e.streamId);
      return;
    }
    if (e.revision <= signed.revision && e.position > this.digest.position) this.suspects.add(e.streamId);
    if (e.revision === signed.revision) s.signedHash = hash;
  }

  result(): ScanResult {
    return { events: this.events, streams: this.streams, suspects: this.suspects };
  }
}

export interface MergedScan {
  events: number;
  /** Every stream met with its last revision and hash; suspect ones as read. */
  streams: Map<string, ScannedStream>;
  suspects: Set<string>;
  /** Held by the digest but met by no range: gone from the log. */
  gone: string[];
}

/**
 * Joins consecutive ranges' scans into the first's maps (consuming them): a stream must go on from its head in the earlier range, and
 * one met first at a revision other than 0 lacks its beginning; either is suspect, as is one not matching the digest's signed hash.
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
