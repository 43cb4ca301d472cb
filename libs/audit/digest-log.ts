import type { KeyObject } from 'node:crypto';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import { signDigest, type SignedDigest, type HashedHead } from './digest';
import { recordDigest } from './digest-events';
import { digestTree, type DigestTree, type DigestTreeStore } from './digest-tree';
import { verifyLog, type LogVerification, type VerifyLogOptions } from './verify-log';

/** The log does not verify: no digest is signed over a broken chain. */
export class LogDoesNotVerify extends Error {
  constructor(readonly faults: number) {
    super(`the log does not verify (${faults} fault(s)): no digest signed; audit verify names them`);
    this.name = 'LogDoesNotVerify';
  }
}

/** A digest of the log and the heads it covers, in stream-id order, and their tree. */
export interface LogDigest {
  digest: SignedDigest;
  heads: HashedHead[];
  tree: DigestTree;
}

/**
 * Signs a digest of `store` (the log as stored) as of its head
 * position now (docs/DESIGN.md "Signed digests"): checks every stream's chain as it stood then
 * (`verifyLog`), folds each head into the Merkle root, and signs position, `now()`, the number of
 * heads and the root with `privateKey`. Throws {@link LogDoesNotVerify} when a chain is broken.
 * `onProgress` is told the events checked so far; `verify` checks the chains (default `verifyLog`
 * of `store`; the embedded store's is faster on two threads).
 */
export async function digestLog(
  store: StoredLog,
  privateKey: KeyObject,
  now: () => Date = () => new Date(),
  onProgress?: (events: number) => void,
  verify: (options: VerifyLogOptions) => Promise<LogVerification> = (options) => verifyLog(store, options),
): Promise<LogDigest> {
  const position = await store.headPosition();
  const heads: HashedHead[] = [];
  const totals = await verify({ toPosition: position, onProgress, onStream: (head) => heads.push(head) });
  if (totals.faults > 0) throw new LogDoesNotVerify(totals.faults);
  const tree = digestTree(heads);
  const digest = signDigest({ position, time: now().toISOString(), streams: heads.length, root: tree.root }, privateKey);
  return { digest, heads, tree };
}

/** What {@link signAndRecord} did: the digest, the heads it covers, and the position it was recorded at. */
export interface SignedAndRecorded {
  digest: SignedDigest;
  heads: HashedHead[];
  recordedAt: number;
}

/**
 * Signs a digest of `store` now (`digestLog`, with `options`), records it in the log as `by`
 * (`recordDigest`, on `recordIn`: the event store the service appends through) and keeps its tree
 * in `trees`, for the API's inclusion proofs (docs/DESIGN.md "Signed digests", "Inclusion
 * proofs"). Throws {@link LogDoesNotVerify} when a chain is broken: nothing is signed or kept.
 */
export async function signAndRecord(
  store: StoredLog,
  recordIn: EventStore,
  trees: DigestTreeStore,
  privateKey: KeyObject,
  by: string,
  options: { onProgress?: (events: number) => void; verify?: (options: VerifyLogOptions) => Promise<LogVerification> } = {},
): Promise<SignedAndRecorded> {
  const { digest, heads, tree } = await digestLog(store, privateKey, undefined, options.onProgress, options.verify);
  const recordedAt = await recordDigest(recordIn, digest, by);
  await trees.keep(digest, tree);
  return { digest, heads, recordedAt };
}
