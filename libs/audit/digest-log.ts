import type { KeyObject } from 'node:crypto';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import { signDigest, type SignedDigest, type HashedHead } from './digest';
import { recordDigest } from './digest-events';
import { digestTree, type DigestTree, type DigestTreeStore } from './digest-tree';
import { verifyLog, type LogVerification, type VerifyLogOptions } from './verify-log';

/** No digest is signed over a broken chain. */
export class LogDoesNotVerify extends Error {
  constructor(readonly faults: number) {
    super(`the log does not verify (${faults} fault(s)): no digest signed; audit verify names them`);
    this.name = 'LogDoesNotVerify';
  }
}

/** Heads in stream-id order. */
export interface LogDigest {
  digest: SignedDigest;
  heads: HashedHead[];
  tree: DigestTree;
}

/**
 * Signs a digest of the log as stored at its head now, once every chain as it stood then verifies (docs/DESIGN.md "Signed digests").
 * Throws {@link LogDoesNotVerify}. `verify` defaults to `verifyLog` of `store`.
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

export interface SignedAndRecorded {
  digest: SignedDigest;
  heads: HashedHead[];
  recordedAt: number;
}

/** Signs, records the digest in the log as `by`, keeps its tree for the API's proofs; {@link LogDoesNotVerify}: nothing signed. */
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
