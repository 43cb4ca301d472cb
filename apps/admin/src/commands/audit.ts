import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import {
  auditLog,
  auditReportJson,
  auditReportSummary,
  digestFileText,
  digestSigner,
  eventsToCheck,
  faultLine,
  heldTo,
  readDigestFile,
  signDigestOf,
  signedDigestSummary,
} from '@app/audit';
import { CliError, type CliContext } from '../cli-context';
import { parseFingerprint, progressBar, signingKey, trustedKey } from './audit-files';

/**
 * `audit verify [--digest <file> [--fingerprint <hex>]] [--json]` and `audit digest [--output <file>] [--by <who>]`
 * (docs/operations.md "Verifying the history", "Signed digests"), over libs/audit. `verify` names each fault by stream and revision, and
 * with a digest file holds the log to it under the trusted key (`--fingerprint`, else this deployment's); exit 1 on any fault or a
 * digest not held. `digest` signs and records a digest of the log's head; exit 1 when the log does not verify (nothing signed).
 */
export function registerAuditCommands(program: Command, ctx: CliContext): void {
  const audit = program.command('audit').description("the history's proof: hash chains and signed digests");
  audit
    .command('verify')
    .description('recompute every event’s hash and report each altered, missing, reordered or inserted event; exit 1 on any')
    .option('--digest <file>', 'also hold the log to a digest file written by audit digest --output')
    .option(
      '--fingerprint <hex>',
      "the fingerprint of the key the digest must be signed by (default: this deployment's audit signing key)",
      parseFingerprint,
    )
    .option('--json', 'write the report as one JSON document on stdout')
    .action((opts: VerifyOptions) => verifyCommand(opts, ctx));
  audit
    .command('digest')
    .description('check every chain, sign a digest of the log with the audit signing key and record it in the log')
    .option('--output <file>', 'write the digest and every stream head it covers to this file (what audit verify --digest reads)')
    .option('--by <name>', 'who signs it (default: this user)')
    .action((opts: { output?: string; by?: string }) => digestCommand(opts, ctx));
}

interface VerifyOptions {
  digest?: string;
  fingerprint?: string;
  json?: boolean;
}

/** The report on stdout, progress and signer on stderr; a digest the trusted key did not sign is refused before the log is read. */
async function verifyCommand(opts: VerifyOptions, ctx: CliContext): Promise<void> {
  if (opts.fingerprint !== undefined && !opts.digest) throw new CliError('--fingerprint names the key a --digest file must be signed by');
  const file = opts.digest ? readDigestFile(opts.digest) : null;
  if (file) process.stderr.write(`${digestSigner(file.digest, trustedKey(ctx, opts.fingerprint))}\n`);
  const report = await ctx.withStores(
    async (stores) => {
      const log = stores.auditLog();
      const bar = progressBar('verifying', await eventsToCheck(log));
      const onFault = opts.json ? undefined : (f: Parameters<typeof faultLine>[0]) => process.stdout.write(`${faultLine(f)}\n`);
      return auditLog(log, file, { onFault, onProgress: (events) => bar.update(events) }).finally(() => bar.stop());
    },
    { catchUp: false },
  );
  const against = heldTo(file?.digest ?? null);
  process.stdout.write(`${opts.json ? auditReportJson(report, against) : auditReportSummary(report, against)}\n`);
  if (report.faults > 0) throw new CliError(`the history does not verify: ${report.faults} fault(s)`);
}

/** Prints the digest; with `output`, writes it with every head. */
async function digestCommand(opts: { output?: string; by?: string }, ctx: CliContext): Promise<void> {
  const key = signingKey(ctx);
  const signed = await ctx.withStores(async (stores) => {
    const log = stores.auditLog();
    const bar = progressBar('digesting', await eventsToCheck(log));
    return signDigestOf(log, key, opts.by ?? userInfo().username, (events) => bar.update(events)).finally(() => bar.stop());
  });
  if (opts.output) writeFileSync(opts.output, digestFileText(signed.digest, signed.heads));
  process.stdout.write(`${JSON.stringify(signed.digest)}\n`);
  process.stderr.write(`${signedDigestSummary(signed, opts.output ?? null)}\n`);
}
