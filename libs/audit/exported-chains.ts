import { chainHash, readChainKeys } from '@app/event-sourcing';

/** One event of an export as its line holds it: where it stood, its type, data and metadata (with their chain keys). */
export interface ExportedChainEvent {
  streamId: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: unknown;
}

/**
 * Each stream's hash chain as an export holds it (docs/DESIGN.md "Verifiable history"), for an
 * import to hold the file to: the store computes the chain afresh as it appends, so a changed export
 * would otherwise be taken in with hashes that hold. Fed the file's events in order; a stream whose
 * first event in the file is not its revision 0 (a partial export) is held from that event on.
 */
export class ExportedChains {
  private readonly chains = new Map<string, { previous: string | null; chained: boolean }>();

  /**
   * Whether `e` matches its hash and is chained to the event before it in the file (an event stored
   * before the chain began is hashed by the rule, and may not follow a chained one); it is then the
   * stream's head for the next. Its data and metadata are hashed as `JSON.stringify` writes them,
   * as every adapter stores them.
   */
  holds(e: ExportedChainEvent): boolean {
    const keys = readChainKeys(JSON.stringify(e.metadata));
    const known = this.chains.get(e.streamId);
    const previous = known ? known.previous : e.revision > 0 ? (keys.previousHash ?? null) : null;
    const hash = chainHash(previous, e.streamId, e.revision, e.type, JSON.stringify(e.data), keys.hashed);
    if (keys.hash !== null ? keys.hash !== hash || keys.previousHash !== previous : (known?.chained ?? false)) return false;
    this.chains.set(e.streamId, { previous: hash, chained: (known?.chained ?? false) || keys.hash !== null });
    return true;
  }
}
