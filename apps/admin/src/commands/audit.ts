import { createPublicKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { ChainFault } from '@app/event-sourcing';
import {
  digestSignatureHolds,
  keyFingerprint,
  LogDoesNotVerify,
  signAndRecord,
  verifyLog,
  type LogVerification,
  type SignedDigest,
  type VerifyLogOptions,
} from '@app/runtime/audit';
import { openDigestTreeStore, type Stores } from '@app/stores';
import { verifyInThreads } from '@app/stores/sqlite';
import { CliError, type CliContext } from '../cli-context';
import { progressBar, readDigestFile, signingKey } from './audit-files';

/**
 * The auditor's commands (docs/operations.md "Verifying the history", "Signed digests"):
 *
 * - `audit verify [--digest <file>] [--json]` recomputes the hash chain of every stream of the log
 *   as stored (docs/DESIGN.md "Verifiable history") and reports each altered, missing, reordered or
 *   inserted event by stream and revision, one line each on stdout, then a summary; with a progress
 *   bar on stderr. With `--digest`, a digest file `audit digest` wrote: its signature must hold,
 *   its heads must make its signed root, and the log must still hold every head it signed (events
 *   taken from a stream's end, or put in with hashes computed afresh, are named too). `--json`
 *   writes one JSON document instead: `{events, streams, seconds, digest, faults: [{stream_id,
 *   revision, kind, detail}]}`. Exit 1 on any fault, or a digest that does not hold.
 * - `audit digest [--output <file>] [--by <who>]` checks every chain as of the log's head, signs a
 *   digest of it with the audit signing key and records it in the log; the digest goes to stdout,
 *   or to `--output` with every stream's head (what `audit verify --digest` reads). Exit 1 when
 *   the log does not verify (nothing is signed).
 */
export function registerAuditCommands(program: Command, ctx: CliContext): void {
  const audit = program.command('audit').description("the history's proof: hash chains and signed digests");
  audit
    .command('verify')
    .description('recompute every event’s hash and report each altered, missing, reordered or inserted event; exit 1 on any')
    .option('--digest <file>', 'also hold the log to a digest file written by audit digest --output')
    .option('--json', 'write the report as one JSON document on stdout')
    .action(async (opts: { digest?: string; json?: boolean }) => {
      const file = opts.digest ? readDigestFile(opts.digest) : null;
      const digest = file ? checkedDigest(file.digest, ctx) : null;
      const heads = file ? new Map(file.heads.map((h) => [h.streamId, { revision: h.revision, hash: h.hash }])) : null;
      const report = await ctx.withStores(
        async (stores) => {
          const store = stores.storedLog;
          // The embedded store numbers positions without gaps: its head is its number of events.
          const bar = progressBar('verifying', store.readStoredStreams ? await store.headPosition() : 0);
          const faults: ChainFault[] = [];
          const started = performance.now();
          const verify = checker(stores, ctx);
          const totals = await verify({
            digest: digest && heads ? { position: digest.position, heads } : undefined,
            onFault: (f) => (opts.json ? faults.push(f) : process.stdout.write(`${faultLine(f)}\n`)),
            onProgress: (events) => bar.update(events),
          });
          bar.stop();
          return { ...totals, seconds: (performance.now() - started) / 1000, faultList: faults };
        },
        { catchUp: false },
      );
      const against = digest ? { position: digest.position, time: digest.time, key_fingerprint: keyFingerprint(digest.public_key) } : null;
      if (opts.json) {
        const faults = report.faultList.map((f) => ({ stream_id: f.streamId, revision: f.revision, kind: f.kind, detail: f.detail }));
        const { events, streams, seconds } = report;
        process.stdout.write(`${JSON.stringify({ events, streams, seconds, digest: against, faults })}\n`);
      } else {
        const rate = report.seconds > 0 ? Math.round(report.events / report.seconds) : report.events;
        const held = against ? `, held to the digest of position ${against.position} (${against.time})` : '';
        process.stdout.write(
          `checked ${report.events} events in ${report.streams} streams in ${report.seconds.toFixed(2)} s (${rate} events/s)${held}: ` +
            `${report.faults === 0 ? 'every chain holds' : `${report.faults} fault(s)`}\n`,
        );
      }
      if (report.faults > 0) throw new CliError(`the history does not verify: ${report.faults} fault(s)`);
    });
  audit
    .command('digest')
    .description('check every chain, sign a digest of the log with the audit signing key and record it in the log')
    .option('--output <file>', 'write the digest and every stream head it covers to this file (what audit verify --digest reads)')
    .option('--by <name>', 'who signs it (default: this user)')
    .action((opts: { output?: string; by?: string }) => digestCommand(opts, ctx));
}

/**
 * `audit digest`: signs a digest of the log, records it and keeps its tree (`signAndRecord`); prints
 * it, and with `output` writes it with every head. A {@link CliError} when the log does not verify.
 */
async function digestCommand(opts: { output?: string; by?: string }, ctx: CliContext): Promise<void> {
  const key = signingKey(ctx);
  const {
    digest,
    heads,
    recordedAt: position,
  } = await ctx.withStores(async (stores) => {
    const store = stores.storedLog;
    const bar = progressBar('digesting', store.readStoredStreams ? await store.headPosition() : 0);
    const trees = await openDigestTreeStore({ dataDir: ctx.dataDir }, stores);
    try {
      return await signAndRecord(store, stores.eventStore, trees, key, opts.by ?? userInfo().username, {
        onProgress: (events) => bar.update(events),
        verify: checker(stores, ctx),
      });
    } catch (err) {
      if (err instanceof LogDoesNotVerify) throw new CliError(err.message);
      throw err;
    } finally {
      bar.stop();
      await trees.close();
    }
  });
  if (opts.output) {
    const lines = heads.map((h) => JSON.stringify([h.streamId, h.revision, h.hash])).join(',\n');
    writeFileSync(opts.output, `{"digest": ${JSON.stringify(digest)},\n"heads": [\n${lines}\n]}\n`);
  }
  process.stdout.write(`${JSON.stringify(digest)}\n`);
  process.stderr.write(
    `signed the digest of position ${digest.position} (${digest.streams} streams, root ${digest.root}), recorded at position ${position}` +
      `${opts.output ? `, written with its heads to ${opts.output}` : ''}; key fingerprint ${keyFingerprint(digest.public_key)}\n`,
  );
}

/**
 * `digest` when its signature holds, else a {@link CliError}. Tells on stderr the fingerprint of
 * the key that signed it, and whether it is this deployment's own signing key (when one is configured).
 */
function checkedDigest(digest: SignedDigest, ctx: CliContext): SignedDigest {
  if (!digestSignatureHolds(digest))
    throw new CliError('the digest’s signature does not hold: the digest file was changed, or is not a digest');
  const fingerprint = keyFingerprint(digest.public_key);
  let own: string | null = null;
  try {
    own = keyFingerprint(createPublicKey(signingKey(ctx, { make: false })));
  } catch {
    own = null;
  }
  const whose =
    own === null
      ? 'compare it with the key you trust'
      : own === fingerprint
        ? 'this deployment’s signing key'
        : 'NOT this deployment’s signing key';
  process.stderr.write(`the digest of position ${digest.position} is signed by the key with fingerprint ${fingerprint} (${whose})\n`);
  return digest;
}

/**
 * How the chains are checked: on two threads for the embedded store (`verifyInThreads`), else
 * `verifyLog` of the store as stored.
 */
function checker(stores: Stores, ctx: CliContext): (options: VerifyLogOptions) => Promise<LogVerification> {
  if (stores.backends.eventStore === 'sqlite') return (options) => verifyInThreads(ctx.dataDir, options);
  const store = stores.storedLog;
  return (options) => verifyLog(store, options);
}

/** One fault as a line of the report: where, what, why. */
function faultLine(f: ChainFault): string {
  return `${f.streamId} revision ${f.revision}: ${f.kind}: ${f.detail}`;
}
