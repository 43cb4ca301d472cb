import type { KeyObject } from 'node:crypto';
import { AuditRefused, type AuditLog } from './audit-log';
import type { ChainFault, LogPosition } from '@app/event-sourcing';
import { digestSignatureHolds, keyFingerprint, type SignedDigest, type TrustedKey } from './digest';
import type { DigestFile } from './digest-file';
import { LogDoesNotVerify, signAndRecord, type SignedAndRecorded } from './digest-log';
import type { LogVerification } from './verify-log';

/** `seconds` taken; faults in the order found. */
export interface LogAudit extends LogVerification {
  seconds: number;
  faultList: ChainFault[];
}

export interface HeldTo {
  position: LogPosition;
  time: string;
  key_fingerprint: string;
}

/** For a progress bar: the embedded store's head position (it has no gaps); 0 (unknown) for any other. */
export async function eventsToCheck(log: AuditLog): Promise<number> {
  return log.storedLog.readStoredStreams ? log.storedLog.headPosition() : 0;
}

/** `audit verify`: every chain, and with `file` every head its digest signed (docs/DESIGN.md "Signed digests"). */
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

/** Null for none. */
export function heldTo(digest: SignedDigest | null): HeldTo | null {
  return digest ? { position: digest.position, time: digest.time, key_fingerprint: keyFingerprint(digest.public_key) } : null;
}

/** `{events, streams, seconds, digest, faults: [{stream_id, revision, kind, detail}]}`. */
export function auditReportJson(report: LogAudit, against: HeldTo | null): string {
  const faults = report.faultList.map((f) => ({ stream_id: f.streamId, revision: f.revision, kind: f.kind, detail: f.detail }));
  const { events, streams, seconds } = report;
  return JSON.stringify({ events, streams, seconds, digest: against, faults });
}

export function auditReportSummary(report: LogAudit, against: HeldTo | null): string {
  const rate = report.seconds > 0 ? Math.round(report.events / report.seconds) : report.events;
  const held = against ? `, held to the digest of position ${against.position} (${against.time})` : '';
  return (
    `checked ${report.events} events in ${report.streams} streams in ${report.seconds.toFixed(2)} s (${rate} events/s)${held}: ` +
    `${report.faults === 0 ? 'every chain holds' : `${report.faults} fault(s)`}`
  );
}

export function faultLine(f: ChainFault): string {
  return `${f.streamId} revision ${f.revision}: ${f.kind}: ${f.detail}`;
}

/**
 * Whose key signed `digest`, for the auditor (docs/DESIGN.md "Who holds what"). {@link AuditRefused} when the signature does not hold,
 * when no key is trusted (a digest carries its own key, so anyone can sign one), or when another key signed it.
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

/** Signs and records a digest of the log's head and keeps its tree; {@link AuditRefused} when the log does not verify (nothing signed). */
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

export function signedDigestSummary(signed: SignedAndRecorded, output: string | null): string {
  const { digest, recordedAt } = signed;
  return (
    `signed the digest of position ${digest.position} (${digest.streams} streams, root ${digest.root}), recorded at position ${recordedAt}` +
    `${output ? `, written with its heads to ${output}` : ''}; key fingerprint ${keyFingerprint(digest.public_key)}`
  );
}
