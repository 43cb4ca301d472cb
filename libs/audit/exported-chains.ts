import { eventHash, readChainKeys } from '@app/event-sourcing';

/** One event of an export as its line holds it: where it stood, its id, type, data and metadata (with their chain keys). */
export interface ExportedChainEvent {
  streamId: string;
  revision: number;
  id: string;
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
  /** Each stream's head in the file: its hash, and the newest chain rule met (0: none chained). */
  private readonly chains = new Map<string, { previous: string | null; version: number }>();

  /**
   * Whether `e` matches its hash and is chained to the event before it in the file, by a rule no
   * older than that event's (an event stored before the chain began may not follow a chained one,
   * nor a version 1 event a version 2 one); it is then the stream's head for the next. Its data and
   * metadata are hashed as `JSON.stringify` writes them, as every adapter stores them, by the rule
   * its chain keys name.
   */
  holds(e: ExportedChainEvent): boolean {
    const metadata = JSON.stringify(e.metadata);
    const keys = readChainKeys(metadata);
    const known = this.chains.get(e.streamId);
    if (keys.version < (known?.version ?? 0)) return false;
    const previous = known ? known.previous : e.revision > 0 ? (keys.previousHash ?? null) : null;
    const hash = eventHash(previous, { ...e, data: JSON.stringify(e.data), metadata }, keys);
    if (keys.hash !== null && (keys.hash !== hash || keys.previousHash !== previous)) return false;
    this.chains.set(e.streamId, { previous: hash, version: keys.version });
    return true;
  }
}
