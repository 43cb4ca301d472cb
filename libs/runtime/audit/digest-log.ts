import type { KeyObject } from 'node:crypto';
import type { EventStore } from '@app/event-sourcing';
import { leafHash, MerkleRoot, signDigest, type SignedDigest, type StreamHead } from './digest';
import { verifyLog, type LogVerification, type VerifyLogOptions } from './verify-log';

/** The log does not verify: no digest is signed over a broken chain. */
export class LogDoesNotVerify extends Error {
  constructor(readonly faults: number) {
    super(`the log does not verify (${faults} fault(s)): no digest signed; audit verify names them`);
    this.name = 'LogDoesNotVerify';
  }
}

/** A digest of the log and the heads it covers, in stream-id order. */
export interface LogDigest {
  digest: SignedDigest;
  heads: StreamHead[];
}

/**
 * Signs a digest of `store` (as stored, beneath the sealing of personal data) as of its head
 * position now (docs/DESIGN.md "Signed digests"): checks every stream's chain as it stood then
 * (`verifyLog`), folds each head into the Merkle root, and signs position, `now()`, the number of
 * heads and the root with `privateKey`. Throws {@link LogDoesNotVerify} when a chain is broken.
 * `onProgress` is told the events checked so far; `verify` checks the chains (default `verifyLog`
 * of `store`; the embedded store's is faster on two threads).
 */
export async function digestLog(
  store: EventStore,
  privateKey: KeyObject,
  now: () => Date = () => new Date(),
  onProgress?: (events: number) => void,
  verify: (options: VerifyLogOptions) => Promise<LogVerification> = (options) => verifyLog(store, options),
): Promise<LogDigest> {
  const position = await store.headPosition();
  const merkle = new MerkleRoot();
  const heads: StreamHead[] = [];
  const totals = await verify({
    toPosition: position,
    onProgress,
    onStream: (head) => {
      merkle.add(leafHash(head));
      heads.push(head);
    },
  });
  if (totals.faults > 0) throw new LogDoesNotVerify(totals.faults);
  const digest = signDigest({ position, time: now().toISOString(), streams: merkle.size, root: merkle.root() }, privateKey);
  return { digest, heads };
}
