import type { KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Presets, SingleBar } from 'cli-progress';
import {
  DIGEST_FORMAT,
  leafHash,
  loadAuditSigningKey,
  MerkleRoot,
  SANDBOX_SIGNING_KEY_FILE,
  SigningKeyUnavailable,
  type SignedDigest,
  type StreamHead,
} from '@app/runtime/audit';
import { CliError, type CliContext } from '../cli-context';

/** What the audit commands read and write beside the stores: the signing key, digest files, the progress bar. */

/** A progress bar on stderr over `total` events (0: unknown, the count alone), as the other long commands draw it. */
export function progressBar(verb: string, total: number): { update(events: number): void; stop(): void } {
  const bar = new SingleBar(
    {
      format: total > 0 ? `${verb} {bar} {value}/{total} events | ETA {eta_formatted}` : `${verb} {value} events`,
      stream: process.stderr,
      noTTYOutput: !process.stderr.isTTY,
      notTTYSchedule: 2000,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (events) => bar.update(total > 0 ? Math.min(events, total) : events), stop: () => bar.stop() };
}

/**
 * The audit signing key (`AUDIT_SIGNING_KEY_FILE`, or the sandbox's in the data dir, made on first
 * use and said so on stderr; docs/operations.md "Signed digests"). With `make: false` a sandbox
 * without one gets none (throws). {@link CliError} when it cannot be had.
 */
export function signingKey(ctx: CliContext, options: { make?: boolean } = {}): KeyObject {
  const signingKeyFile = ctx.env.AUDIT_SIGNING_KEY_FILE?.trim() || null;
  if (options.make === false && signingKeyFile === null && !existsSync(join(ctx.dataDir, SANDBOX_SIGNING_KEY_FILE))) {
    throw new CliError('no audit signing key is configured');
  }
  try {
    const key = loadAuditSigningKey({ dataDir: ctx.dataDir, signingKeyFile, production: ctx.environment === 'production' });
    if (key.created)
      process.stderr.write(`made an audit signing key for the sandbox in ${key.created}; production needs AUDIT_SIGNING_KEY_FILE\n`);
    return key.privateKey;
  } catch (err) {
    if (err instanceof SigningKeyUnavailable) throw new CliError(err.message);
    throw err;
  }
}

/** A digest file as `audit digest --output` writes it: the signed digest and the heads it covers. */
export interface DigestFile {
  digest: SignedDigest;
  heads: StreamHead[];
}

/**
 * Reads a digest file and checks its shape, and that its heads make its signed root (a file whose
 * heads were changed cannot pass for the digest). {@link CliError} for anything else.
 */
export function readDigestFile(file: string): DigestFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`Cannot read the digest file ${file}: ${(err as Error).message}`);
  }
  const { digest, heads } = (parsed ?? {}) as { digest?: Partial<SignedDigest>; heads?: unknown };
  const isDigest =
    digest?.format === DIGEST_FORMAT &&
    Number.isSafeInteger(digest.position) &&
    typeof digest.time === 'string' &&
    Number.isSafeInteger(digest.streams) &&
    typeof digest.root === 'string' &&
    typeof digest.signature === 'string' &&
    typeof digest.public_key?.x === 'string';
  const isHead = (h: unknown) =>
    Array.isArray(h) && h.length === 3 && typeof h[0] === 'string' && Number.isSafeInteger(h[1]) && typeof h[2] === 'string';
  if (!isDigest || !Array.isArray(heads) || !heads.every(isHead)) {
    throw new CliError(
      `${file} is not a digest file written by audit digest --output ({"digest": …, "heads": [[stream, revision, hash], …]})`,
    );
  }
  const list = (heads as [string, number, string][]).map(([streamId, revision, hash]) => ({ streamId, revision, hash }));
  const merkle = new MerkleRoot();
  for (const h of list) merkle.add(leafHash(h));
  if (merkle.size !== digest.streams || merkle.root() !== digest.root) {
    throw new CliError(`the heads in ${file} do not make the digest's signed root: the file was changed`);
  }
  return { digest: digest as SignedDigest, heads: list };
}
