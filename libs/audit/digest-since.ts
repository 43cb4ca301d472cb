import type { KeyObject } from 'node:crypto';
import {
  eventHash,
  readChainKeys,
  storedTextOf,
  type EventStore,
  type LogPosition,
  type StoredEventText,
  type StoredLog,
  checkStreamChain,
} from '@app/event-sourcing';
import { signDigest, type HashedHead } from './digest';
import { AUDIT_DIGEST_STREAM, recordDigest } from './digest-events';
import { signAndRecord, LogDoesNotVerify, type SignedAndRecorded } from './digest-log';
import { digestTree, type DigestTreeStore } from './digest-tree';
import type { LogVerification, VerifyLogOptions } from './verify-log';

/** Per read while the streams moved since a digest are listed. */
const PAGE = 5000;

export interface DigestSinceContext {
  /** As stored: the chain hashes the stored texts. */
  store: StoredLog;
  /** The service's, which records the digest. */
  recordIn: EventStore;
  trees: DigestTreeStore;
  privateKey: KeyObject;
  /** As the `AuditDigestSigned` event records it. */
  by: string;
  now?: () => Date;
  /** How a first, whole digest checks the chains; default `verifyLog` of `store`. */
  verify?: (options: VerifyLogOptions) => Promise<LogVerification>;
}

/**
 * The next digest, signed, recorded and kept (docs/DESIGN.md "Scheduled digests"); null when only `audit-digests` moved. Without a kept
 * digest, a whole one; else the increment: moved streams checked from their kept heads. {@link LogDoesNotVerify} when a moved stream
 * no longer extends its signed head (nothing signed).
 */
export async function digestSince(ctx: DigestSinceContext): Promise<SignedAndRecorded | null> {
  const kept = await ctx.trees.latest();
  if (!kept) return signAndRecord(ctx.store, ctx.recordIn, ctx.trees, ctx.privateKey, ctx.by, { verify: ctx.verify });
  const from = kept.digest.position;
  const position = await ctx.store.headPosition();
  const moved = await streamsMovedAfter(ctx.store, from, position);
  if ([...moved].every((s) => s === AUDIT_DIGEST_STREAM)) return null;
  const heads = new Map((await ctx.trees.heads()).map((h) => [h.streamId, h]));
  let faults = 0;
  for (const streamId of moved) {
    const head = await extendedHead(ctx.store, streamId, heads.get(streamId), position);
    if (head === null) faults++;
    else heads.set(streamId, head);
  }
  if (faults > 0) throw new LogDoesNotVerify(faults);
  const ordered = [...heads.values()].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
  const tree = digestTree(ordered);
  const time = (ctx.now ?? (() => new Date()))().toISOString();
  const digest = signDigest({ position, time, streams: ordered.length, root: tree.root }, ctx.privateKey);
  const recordedAt = await recordDigest(ctx.recordIn, digest, ctx.by);
  await ctx.trees.keep(digest, tree);
  return { digest, heads: ordered, recordedAt };
}

/** Reads small pages after `from` and stops at the first such event: an idle log holds only the kept digest's own. */
export async function logMovedSince(store: StoredLog, from: LogPosition): Promise<boolean> {
  for (let after = from; ;) {
    const page = await store.readAll({ fromPosition: after, maxCount: 100 });
    if (page.length === 0) return false;
    if (page.some((e) => e.streamId !== AUDIT_DIGEST_STREAM)) return true;
    after = page[page.length - 1].position;
  }
}

async function streamsMovedAfter(store: StoredLog, from: LogPosition, to: LogPosition): Promise<Set<string>> {
  const moved = new Set<string>();
  for (let after = from; after < to;) {
    const page = await store.readAll({ fromPosition: after, maxCount: PAGE });
    if (page.length === 0) break;
    for (const e of page) if (e.position <= to) moved.add(e.streamId);
    after = page[page.length - 1].position;
  }
  return moved;
}

/** As of `position`, when its events from the signed head on are intact and chained to it; null otherwise. */
async function extendedHead(
  store: StoredLog,
  streamId: string,
  signed: HashedHead | undefined,
  position: LogPosition,
): Promise<HashedHead | null> {
  const read = async (fromRevision: number): Promise<StoredEventText[]> =>
    (await store.readStream(streamId, { fromRevision })).filter((e) => e.position <= position).map(storedTextOf);
  const events = signed ? await read(signed.revision) : [];
  const first = events[0];
  const firstKeys = first ? readChainKeys(first.metadata) : null;
  if (!signed || !firstKeys || firstKeys.hash === null || firstKeys.previousHash === undefined) {
    const whole = await read(0);
    const report = checkStreamChain(whole);
    const last = whole[whole.length - 1];
    if (report.faults.length > 0 || !last || report.headHash === null) return null;
    return { streamId, revision: last.revision, hash: report.headHash };
  }
  if (first.revision !== signed.revision) return null;
  let previous = eventHash(firstKeys.previousHash, first, firstKeys);
  if (previous !== signed.hash || firstKeys.hash !== previous) return null;
  let version = firstKeys.version;
  for (let i = 1; i < events.length; i++) {
    const e = events[i];
    const k = readChainKeys(e.metadata);
    if (e.revision !== signed.revision + i || k.hash === null || k.previousHash !== previous || k.version < version) return null;
    if (eventHash(previous, e, k) !== k.hash) return null;
    previous = k.hash;
    version = k.version;
  }
  return { streamId, revision: events[events.length - 1].revision, hash: previous };
}
