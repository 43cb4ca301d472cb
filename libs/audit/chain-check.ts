import { eventHash, readChainKeys, type StoredEventText } from '@app/event-sourcing';

/**
 * What a check of the chain found wrong with one place of a stream (docs/DESIGN.md "Verifiable
 * history"):
 * - `altered`: the event at `revision` is not what was hashed (its data, metadata, type, id or chain keys
 *   changed), or is of an older chain rule than an event before it;
 * - `missing`: no event at `revision`, though a later one follows it;
 * - `reordered`: the event at `revision` was hashed at another revision (`detail` says which);
 * - `inserted`: the event at `revision` is intact in itself but was not chained to the event before it
 *   (an event put in, or one before it replaced).
 */
export interface ChainFault {
  streamId: string;
  revision: number;
  kind: 'altered' | 'missing' | 'reordered' | 'inserted';
  detail: string;
}

/** What {@link checkStreamChain} found in one stream. */
export interface StreamChainReport {
  faults: ChainFault[];
  /** The hash of the stream's last event (as stored, or computed for an event stored before the chain began); null for none. */
  headHash: string | null;
}

/**
 * Checks one stream's chain: `events` are the stream's events as the store gives them, in
 * revision order. Each event's hash is recomputed from its stored texts; an event that does not
 * match it at its revision, nor at a neighbouring one, is `altered`. The links (each event's
 * `previousHash`) then tell missing, reordered and inserted events apart, each reported once at
 * the revision where it shows ({@link ChainFault}); after a fault the check goes on from the
 * event's own stored hash, so one change is not reported again at every later event. Each event is
 * hashed by the rule its chain keys name (`eventHash`); events stored before the chain began (no
 * hash) by the version 1 rule. An event of an older kind than one before it (no hash after a
 * chained event, version 1 after version 2) is `altered`. The rule: docs/DESIGN.md "Verifiable history".
 */
export function checkStreamChain(events: readonly StoredEventText[]): StreamChainReport {
  const intact = intactHead(events);
  return intact === undefined ? classifyFaults(events) : { faults: [], headHash: intact };
}

/**
 * The head hash of a stream whose every event is in place and in the chain (the common case, one
 * pass, nothing kept); undefined at the first event that is not, for {@link classifyFaults} to say why.
 */
function intactHead(events: readonly StoredEventText[]): string | null | undefined {
  const chain = new IntactChain();
  for (const e of events) if (!chain.add(e)) return undefined;
  return chain.headHash;
}

/**
 * The fast path of {@link checkStreamChain} fed a stream's events one at a time, in revision order,
 * so that a stream too long to hold is checked a chunk at a time with O(1) state (docs/operations.md
 * "Trainee history"). {@link add} answers whether the stream read so far is intact: every event at
 * its place (revisions 0, 1, …), matching its hash by the rule its chain keys name, chained to the
 * one before, and never by an older rule than the event before (events stored before the chain
 * began are hashed by version 1 of the rule). Once one is not, the chain stays not intact, and
 * it does not say why: a caller then runs {@link checkStreamChain} over the whole stream, which
 * classifies each fault (a tampered stream is rare, and the auditor needs every fault). For an
 * intact stream, {@link headHash} after its last event is `checkStreamChain(events).headHash`.
 */
export class IntactChain {
  private previous: string | null = null;
  /** The newest chain rule met so far (0: none yet chained). */
  private version = 0;
  private next = 0;
  private holds = true;

  /** Takes the stream's next event; false when it, or an event before it, is not in place and in the chain. */
  add(e: StoredEventText): boolean {
    if (!this.holds || e.revision !== this.next) return (this.holds = false);
    const k = readChainKeys(e.metadata);
    if (k.version < this.version) return (this.holds = false);
    const hash = eventHash(this.previous, e, k);
    if (k.hash !== null && (k.hash !== hash || k.previousHash !== this.previous)) return (this.holds = false);
    this.version = k.version;
    this.previous = hash;
    this.next++;
    return true;
  }

  /** Whether every event taken so far is in place and in the chain. */
  get intact(): boolean {
    return this.holds;
  }

  /** The hash of the last event taken (null before the first); meaningful only while {@link intact}. */
  get headHash(): string | null {
    return this.previous;
  }

  /** How many events were taken while the chain held. */
  get events(): number {
    return this.next;
  }
}

/** {@link checkStreamChain} of a stream that is not intact: each fault, classified. */
function classifyFaults(events: readonly StoredEventText[]): StreamChainReport {
  const faults: ChainFault[] = [];
  const keys = events.map((e) => readChainKeys(e.metadata));
  const stored = new Set(keys.flatMap((k) => (k.hash === null ? [] : [k.hash])));
  /** Revision of each hash met so far. */
  const seen = new Map<string, number>();
  let previous: string | null = null;
  let nextRevision = 0;
  /** The newest chain rule met so far (0: none yet chained). */
  let version = 0;
  /** Events put in (positive) or taken out (negative) before this point and the later ones renumbered. */
  let shift = 0;
  let faultedBefore = false;
  events.forEach((e, i) => {
    const before = faults.length;
    const fault = (kind: ChainFault['kind'], revision: number, detail: string) =>
      faults.push({ streamId: e.streamId, revision, kind, detail });
    for (let r = nextRevision; r < e.revision; r++) fault('missing', r, `no event at revision ${r}, before revision ${e.revision}`);
    nextRevision = e.revision + 1;
    const k = keys[i];
    const hash = k.hash ?? eventHash(previous, e, k);
    if (k.hash === null) {
      // Stored before the chain began; after a chained event, its chain keys were taken away.
      if (version > 0) fault('altered', e.revision, 'the event has no hash, though events before it are chained');
    } else if (k.version < version) {
      fault('altered', e.revision, `the event is chained by version ${k.version} of the rule, after events of version ${version}`);
    } else {
      version = k.version;
      checkLinks();
    }
    previous = hash;
    seen.set(hash, e.revision);
    faultedBefore = faults.length > before;

    function checkLinks(): void {
      const link = k.previousHash === undefined ? null : k.previousHash;
      const intactAt = (revision: number) => revision >= 0 && k.previousHash !== undefined && eventHash(link, e, k, revision) === k.hash;
      const place = e.revision - shift;
      const broken = faultedBefore || faults.length > before;
      const hashedAt = [place, e.revision, e.revision - 1, e.revision + 1].find(intactAt);
      if (hashedAt === undefined) return void fault('altered', e.revision, 'the event does not match its hash');
      if (link === previous && hashedAt === place) return;
      if (broken && hashedAt === place) return; // the link's break shows at the fault before
      const linkedTo = link === null ? -1 : seen.get(link);
      if (link !== previous && linkedTo !== undefined && hashedAt === linkedTo + 1 && !broken) {
        for (let r = linkedTo + 1; r < e.revision; r++)
          fault(
            'inserted',
            r,
            `the event at revision ${r} is not in the chain: revision ${e.revision} was chained to revision ${linkedTo}`,
          );
        shift += e.revision - 1 - linkedTo;
      } else if (link !== previous && linkedTo === undefined && !stored.has(link!) && hashedAt > place) {
        fault('missing', e.revision, `${hashedAt - place} event(s) taken out before revision ${e.revision}, and the later ones renumbered`);
        shift -= hashedAt - place;
      } else if (hashedAt !== place) {
        fault('reordered', e.revision, `the event at revision ${e.revision} was stored at revision ${hashedAt}`);
      } else {
        fault('inserted', e.revision - 1, `the event at revision ${e.revision - 1} is not the one revision ${e.revision} was chained to`);
      }
    }
  });
  return { faults, headHash: previous };
}
