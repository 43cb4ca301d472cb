import type { StoredEventText } from './event-store.port';
import { eventHash, readChainKeys } from './hash-chain';

/**
 * One fault of a stream's chain (docs/DESIGN.md "Verifiable history", the table of faults): `altered`, `missing`, `reordered`
 * (`detail` says which revision it was hashed at) or `inserted`.
 */
export interface ChainFault {
  streamId: string;
  revision: number;
  kind: 'altered' | 'missing' | 'reordered' | 'inserted';
  detail: string;
}

export interface StreamChainReport {
  faults: ChainFault[];
  /** As stored, or computed for an event stored before the chain began; null for none. */
  headHash: string | null;
}

/**
 * Checks one stream's events as stored, in revision order, each hashed by the rule its chain keys name; each fault is reported once
 * where it shows, then the check goes on from the event's own stored hash (docs/DESIGN.md "Verifiable history").
 */
export function checkStreamChain(events: readonly StoredEventText[]): StreamChainReport {
  const intact = intactHead(events);
  return intact === undefined ? classifyFaults(events) : { faults: [], headHash: intact };
}

/** Undefined at the first event not in place and in the chain, for {@link classifyFaults} to say why. */
function intactHead(events: readonly StoredEventText[]): string | null | undefined {
  const chain = new IntactChain();
  for (const e of events) if (!chain.add(e)) return undefined;
  return chain.headHash;
}

/**
 * {@link checkStreamChain}'s fast path, fed one event at a time with O(1) state so a long stream is checked a chunk at a time. It says
 * only whether the chain holds; a caller then runs `checkStreamChain` over the whole stream to classify faults (tampering is rare).
 */
export class IntactChain {
  private previous: string | null = null;
  /** The newest chain rule met (0: none yet). */
  private version = 0;
  private next = 0;
  private holds = true;

  /** False once it, or an event before it, is not in place and in the chain. */
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

  get intact(): boolean {
    return this.holds;
  }

  /** Null before the first; meaningful only while {@link intact}. */
  get headHash(): string | null {
    return this.previous;
  }

  /** Taken while the chain held. */
  get events(): number {
    return this.next;
  }
}

function classifyFaults(events: readonly StoredEventText[]): StreamChainReport {
  const faults: ChainFault[] = [];
  const keys = events.map((e) => readChainKeys(e.metadata));
  const stored = new Set(keys.flatMap((k) => (k.hash === null ? [] : [k.hash])));
  const seen = new Map<string, number>();
  let previous: string | null = null;
  let nextRevision = 0;
  /** The newest chain rule met (0: none yet). */
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
