import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { Presets, SingleBar } from 'cli-progress';
import { keyFingerprint, loadAuditSigningKey, SANDBOX_SIGNING_KEY_FILE, SigningKeyUnavailable, type TrustedKey } from '@app/audit';
import { CliError, type CliContext } from '../cli-context';

/** What the audit commands read beside the stores and draw: the signing key, the progress bar. */

/** A progress bar on stderr over `total` events, or another `unit` (0: unknown, the count alone), as the other long commands draw it. */
export function progressBar(verb: string, total: number, unit = 'events'): { update(events: number): void; stop(): void } {
  const bar = new SingleBar(
    {
      format: total > 0 ? `${verb} {bar} {value}/{total} ${unit} | ETA {eta_formatted}` : `${verb} {value} ${unit}`,
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

/** This deployment's audit signing key when one is configured or the sandbox has made one; null otherwise (nothing is made). */
export function ownSigningKey(ctx: CliContext): KeyObject | null {
  try {
    return signingKey(ctx, { make: false });
  } catch {
    return null;
  }
}

/** A `--fingerprint` option's value: 64 hex digits, lower-cased; commander's usage error (exit 2) otherwise. */
export function parseFingerprint(value: string): string {
  if (!/^[0-9a-f]{64}$/i.test(value)) throw new InvalidArgumentError('a key fingerprint: 64 hex digits (SHA-256 of the public key)');
  return value.toLowerCase();
}

/**
 * The key an auditor's check holds a digest to (docs/DESIGN.md "Who holds what"): the one whose
 * fingerprint was `given` (`--fingerprint`), else this deployment's audit signing key's public
 * half ({@link ownSigningKey}: `AUDIT_SIGNING_KEY_FILE`, or the sandbox's made in the data dir);
 * null when there is neither.
 */
export function trustedKey(ctx: CliContext, given: string | undefined): TrustedKey | null {
  if (given !== undefined) return { fingerprint: given, name: 'the key given with --fingerprint' };
  const own = ownSigningKey(ctx);
  return own === null ? null : { fingerprint: keyFingerprint(own), name: 'this deployment’s signing key' };
}
