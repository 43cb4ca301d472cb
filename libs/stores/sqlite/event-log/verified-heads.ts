import type { Database } from '@app/sqlite';

/** About 250 bytes each: some 2.5 MB in all. */
export const VERIFIED_STREAMS = 10_000;

/**
 * Heads of streams this connection has seen make their chain, or wrote, so an append need not check the stream again (docs/DESIGN.md
 * "Verifiable history"); least recently used dropped first. Trusted in a later write transaction because: any other connection's
 * commit changes `PRAGMA data_version`, and {@link sync}, called inside the write transaction (holding the file's lock), then forgets
 * them all; a head kept for a rolled-back append is ahead of the stream, so {@link get} answers nothing; bytes written behind SQLite's
 * locks while the connection is open would not reliably be re-read either (its page cache): `admin audit verify` and a restart see them.
 */
export class VerifiedHeads {
  private readonly heads = new Map<string, { revision: number; hash: string }>();
  private readonly dataVersion: Database.Statement<[], number>;
  private seenVersion: number | null = null;

  constructor(
    db: Database.Database,
    private readonly capacity = VERIFIED_STREAMS,
  ) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Call inside the write transaction. */
  sync(): void {
    const version = this.dataVersion.get()!;
    if (version !== this.seenVersion) this.heads.clear();
    this.seenVersion = version;
  }

  /** Undefined unless the head kept is at `revision`. */
  get(streamId: string, revision: number): string | undefined {
    const head = this.heads.get(streamId);
    if (head === undefined || head.revision !== revision) return undefined;
    this.heads.delete(streamId);
    this.heads.set(streamId, head);
    return head.hash;
  }

  /** `hash` of `streamId`'s last event, at `revision`, as checked or written. */
  set(streamId: string, revision: number, hash: string): void {
    this.heads.delete(streamId);
    this.heads.set(streamId, { revision, hash });
    if (this.heads.size > this.capacity) this.heads.delete(this.heads.keys().next().value!);
  }
}
