export { AuditRefused, type AuditLog } from './audit-log';
export { openDigestSchedule, SCHEDULED_DIGEST_SIGNER, type DigestScheduleConfig } from './scheduled-digests';
export { digestLog, LogDoesNotVerify, signAndRecord, type LogDigest, type SignedAndRecorded } from './digest-log';
export { AUDIT_DIGEST_SIGNED, AUDIT_DIGEST_STREAM, recordDigest } from './digest-events';
export { checkAgainstDigest, streamGone, type SignedHead } from './digest-check';
export {
  DIGEST_FORMAT,
  digestMessage,
  digestSignatureHolds,
  keyFingerprint,
  leafHash,
  MerkleRoot,
  signDigest,
  type SignedDigest,
  type HashedHead,
  type TrustedKey,
} from './digest';
export { loadAuditSigningKey, SANDBOX_SIGNING_KEY_FILE, SigningKeyUnavailable, type AuditSigningKey } from './signing-key';
export { verifyLog, type LogVerification, type StreamRange, type VerifyLogListener, type VerifyLogOptions } from './verify-log';
export {
  digestTree,
  DIGEST_TREE_STORE,
  proofHolds,
  proofOf,
  type DigestTree,
  type DigestTreeStore,
  type DigestWithProof,
  type InclusionProof,
  type KeptHead,
  type TreeNode,
} from './digest-tree';
export { inclusionPath, rootFromPath, subtreesOfPath, type SubtreeLookup } from './merkle-proof';
export { digestSince, logMovedSince, type DigestSinceContext } from './digest-since';
export { DigestSchedule, type DigestScheduleLogger, type ScheduledDigest } from './digest-schedule';
export {
  digestSection,
  digestSectionOf,
  latestRecordedDigest,
  readStoredStream,
  type DigestSection,
  type RecordedDigest,
  type StreamCoverage,
} from './stream-digest';
export { storedStreamChunks, VERIFY_CHUNK, verifyStoredStream, type StreamVerification } from './stream-verification';
export { ChainScan, mergeScans, type MergedScan, type ScanDigest, type ScannedStream, type ScanResult } from './chain-scan';
export { loadHistoryReport, writeHistoryReport, type HistorySources } from './history/history-report-stream';
export { renderHistoryReport, type HistoryReportInput } from './history/history-report';
export { HISTORY_CHUNK, timelineTable, writeTimeline, type TimelineFormat } from './history/timeline-output';
export { digestFileText, readDigestFile, type DigestFile } from './digest-file';
export {
  auditLog,
  auditReportJson,
  auditReportSummary,
  digestSigner,
  eventsToCheck,
  faultLine,
  heldTo,
  signDigestOf,
  signedDigestSummary,
  type HeldTo,
  type LogAudit,
} from './log-audit';
export { ExportedChains, type ExportedChainEvent } from './exported-chains';
