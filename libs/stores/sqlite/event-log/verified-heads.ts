import type { Database } from '@app/sqlite';

/** Streams whose checked head one connection keeps (about 250 bytes each: some 2.5 MB in all). */
export const VERIFIED_STREAMS = 10_000;

/**
 * The heads of streams whose every stored event one connection has seen make its chain, so that an
 * append need not check the stream again (docs/DESIGN.md "Verifiable history"): per stream, the
 * revision of its last event and that event's hash, as checked (`IntactChain` over the whole
 * stream) or as this connection wrote it. At most {@link VERIFIED_STREAMS}, the least recently used
 * dropped first.
 *
 * Why a kept head can be trusted in a later write transaction of the same connection:
 * - Stored events change only by a write. Every write this connection makes is an append that
 *   records its new head here. Any write by another connection (the sqlite3 shell, another
 *   process, a restored backup) changes `PRAGMA data_version` as this connection sees it, and
 *   {@link sync} then forgets every head. `sync` is called inside the write transaction, which holds
 *   the file's write lock, so no other commit can come between the check and the append.
 * - A head kept for an append whose transaction then rolled back is ahead of the stream: its
 *   revision is not the stream's, so {@link get} answers nothing and the stream is checked again;
 *   the append that later takes that revision records its own head in its place.
 * - Bytes written into the file or its WAL behind SQLite's locks, while the connection is open,
 *   change neither: a connection may answer such pages from its own cache anyway, so reading the
 *   stream again would not reliably see them either. `admin audit verify` and the next start
 *   (an empty set) do.
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

  /** Forgets every head when another connection committed since the last call; call inside the write transaction. */
  sync(): void {
    const version = this.dataVersion.get()!;
    if (version !== this.seenVersion) this.heads.clear();
    this.seenVersion = version;
  }

  /** The kept hash of `streamId`'s head when the head kept is at `revision`; else undefined. */
  get(streamId: string, revision: number): string | undefined {
    const head = this.heads.get(streamId);
    if (head === undefined || head.revision !== revision) return undefined;
    this.heads.delete(streamId);
    this.heads.set(streamId, head);
    return head.hash;
  }

  /** Keeps `hash` as the checked hash of `streamId`'s event at `revision`, its last. */
  set(streamId: string, revision: number, hash: string): void {
    this.heads.delete(streamId);
    this.heads.set(streamId, { revision, hash });
    if (this.heads.size > this.capacity) this.heads.delete(this.heads.keys().next().value!);
  }
}
