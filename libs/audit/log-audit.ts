import type { KeyObject } from 'node:crypto';
import { AuditRefused, type AuditLog } from './audit-log';
import type { ChainFault } from './chain-check';
import { digestSignatureHolds, keyFingerprint, type SignedDigest, type TrustedKey } from './digest';
import type { DigestFile } from './digest-file';
import { LogDoesNotVerify, signAndRecord, type SignedAndRecorded } from './digest-log';
import type { LogVerification } from './verify-log';

/**
 * The auditor's checks of the whole log (docs/operations.md "Verifying the history", "Signed
 * digests"): what `admin audit verify` and `admin audit digest` do and say, apart from reading
 * their arguments and writing to the terminal.
 */

/** What `audit verify` found: the counts, how long it took (s), and each fault in the order found. */
export interface LogAudit extends LogVerification {
  seconds: number;
  faultList: ChainFault[];
}

/** The digest a check was held to, as the report names it. */
export interface HeldTo {
  position: number;
  time: string;
  key_fingerprint: string;
}

/**
 * The events the log holds, for a progress bar's total: the embedded store's head position (it
 * numbers positions without gaps), 0 (unknown) for any other.
 */
export async function eventsToCheck(log: AuditLog): Promise<number> {
  return log.storedLog.readStoredStreams ? log.storedLog.headPosition() : 0;
}

/**
 * Checks every stream's chain of `log` (`AuditLog.verify`), and with `file` holds the log to the
 * digest it holds: the log must still hold every head it signed (docs/DESIGN.md "Signed digests").
 * Each fault is told to `onFault` as it is found, the events checked so far to `onProgress`.
 */
export async function auditLog(
  log: AuditLog,
  file: DigestFile | null,
  listener: { onFault?: (fault: ChainFault) => void; onProgress?: (events: number) => void } = {},
): Promise<LogAudit> {
  const faultList: ChainFault[] = [];
  const started = performance.now();
  const heads = file ? new Map(file.heads.map((h) => [h.streamId, { revision: h.revision, hash: h.hash }])) : null;
  const totals = await log.verify({
    digest: file && heads ? { position: file.digest.position, heads } : undefined,
    onFault: (f) => {
      faultList.push(f);
      listener.onFault?.(f);
    },
    onProgress: listener.onProgress,
  });
  return { ...totals, seconds: (performance.now() - started) / 1000, faultList };
}

/** The digest a check is held to, as {@link auditReportJson} and {@link auditReportSummary} name it; null for none. */
export function heldTo(digest: SignedDigest | null): HeldTo | null {
  return digest ? { position: digest.position, time: digest.time, key_fingerprint: keyFingerprint(digest.public_key) } : null;
}

/** `audit verify --json`'s document: `{events, streams, seconds, digest, faults: [{stream_id, revision, kind, detail}]}`. */
export function auditReportJson(report: LogAudit, against: HeldTo | null): string {
  const faults = report.faultList.map((f) => ({ stream_id: f.streamId, revision: f.revision, kind: f.kind, detail: f.detail }));
  const { events, streams, seconds } = report;
  return JSON.stringify({ events, streams, seconds, digest: against, faults });
}

/** The summary line of `audit verify`: what was checked, how fast, against which digest, and the verdict. */
export function auditReportSummary(report: LogAudit, against: HeldTo | null): string {
  const rate = report.seconds > 0 ? Math.round(report.events / report.seconds) : report.events;
  const held = against ? `, held to the digest of position ${against.position} (${against.time})` : '';
  return (
    `checked ${report.events} events in ${report.streams} streams in ${report.seconds.toFixed(2)} s (${rate} events/s)${held}: ` +
    `${report.faults === 0 ? 'every chain holds' : `${report.faults} fault(s)`}`
  );
}

/** One fault as a line of the report: where, what, why. */
export function faultLine(f: ChainFault): string {
  return `${f.streamId} revision ${f.revision}: ${f.kind}: ${f.detail}`;
}

/**
 * Whose key signed `digest`, as a sentence for the auditor, when it is the `trusted` key
 * (docs/DESIGN.md "Who holds what"). {@link AuditRefused} when the signature does not hold (the
 * file was changed, or is not a digest), when no key is trusted (`trusted` null: a digest carries
 * its own key, so anyone can sign one and nothing ties it to this deployment), and when another key
 * signed it.
 */
export function digestSigner(digest: SignedDigest, trusted: TrustedKey | null): string {
  if (!digestSignatureHolds(digest))
    throw new AuditRefused('the digest’s signature does not hold: the digest file was changed, or is not a digest');
  const fingerprint = keyFingerprint(digest.public_key);
  const signed = `the digest of position ${digest.position} is signed by the key with fingerprint ${fingerprint}`;
  if (trusted === null)
    throw new AuditRefused(
      `${signed}, which the digest carries itself: anyone can sign a digest with a key of their own. No key to hold it to: ` +
        'configure AUDIT_SIGNING_KEY_FILE, or give --fingerprint <hex>, the fingerprint the operator published',
    );
  if (trusted.fingerprint !== fingerprint)
    throw new AuditRefused(`${signed}, NOT ${trusted.name} (${trusted.fingerprint}): it proves nothing about this log, whoever signed it`);
  return `${signed} (${trusted.name})`;
}

/**
 * Signs a digest of `log` as of its head with `privateKey`, records it as signed by `by` and keeps
 * its tree (`signAndRecord`, the chains checked by `AuditLog.verify`); the tree's store is opened
 * for it and closed after. {@link AuditRefused} when the log does not verify (nothing is signed).
 */
export async function signDigestOf(
  log: AuditLog,
  privateKey: KeyObject,
  by: string,
  onProgress?: (events: number) => void,
): Promise<SignedAndRecorded> {
  const trees = await log.openTrees();
  try {
    return await signAndRecord(log.storedLog, log.eventStore, trees, privateKey, by, { onProgress, verify: (o) => log.verify(o) });
  } catch (err) {
    if (err instanceof LogDoesNotVerify) throw new AuditRefused(err.message);
    throw err;
  } finally {
    await trees.close();
  }
}

/** What `audit digest` says on stderr of the digest it signed: its position and size, where it was recorded and written, its key. */
export function signedDigestSummary(signed: SignedAndRecorded, output: string | null): string {
  const { digest, recordedAt } = signed;
  return (
    `signed the digest of position ${digest.position} (${digest.streams} streams, root ${digest.root}), recorded at position ${recordedAt}` +
    `${output ? `, written with its heads to ${output}` : ''}; key fingerprint ${keyFingerprint(digest.public_key)}`
  );
}
