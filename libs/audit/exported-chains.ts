import { eventHash, readChainKeys } from '@app/event-sourcing';

/** Metadata with its chain keys. */
export interface ExportedChainEvent {
  streamId: string;
  revision: number;
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
}

/**
 * Each stream's chain as an export holds it: the store chains afresh as it appends, so an import holds the file to this or a changed
 * export would be taken in with hashes that hold. A partial export's stream is held from its first event in the file.
 */
export class ExportedChains {
  /** Each stream's head hash, and the newest chain rule met (0: none). */
  private readonly chains = new Map<string, { previous: string | null; version: number }>();

  /** Matches its hash (texts as `JSON.stringify` writes them) and is chained to the one before by a rule no older than its. */
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
