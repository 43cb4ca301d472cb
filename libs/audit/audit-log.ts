import type { KeyObject } from 'node:crypto';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import type { ScheduledDigest } from './digest-schedule';
import type { DigestTreeStore } from './digest-tree';
import type { LogVerification, VerifyLogOptions } from './verify-log';

/**
 * The log as the audit reads and records it (docs/DESIGN.md "Verifiable history"), composed by each
 * process from the stores it opened (`Stores.auditLog`, libs/composition): the audit's logic lives here, the
 * storage adapters it uses there.
 */
export interface AuditLog {
  /** The log as stored: what the chain hashes, sealed values sealed. */
  storedLog: StoredLog;
  /** The event store, through which a signed digest is recorded and a stream is read opened. */
  eventStore: EventStore;
  /** Checks every stream's chain: `verifyLog` of {@link storedLog}, or the embedded store's faster check on two threads. */
  verify(options: VerifyLogOptions): Promise<LogVerification>;
  /** Opens the store of the latest digest's tree (docs/DESIGN.md "Inclusion proofs"); the caller closes it. */
  openTrees(): Promise<DigestTreeStore>;
  /**
   * Signs the digest of what moved since the kept one on a thread of its own where the store can
   * (the embedded log: `digestInThread`), with `privateKey`, recorded as signed by `by`; null: in
   * the calling thread (`digestSince`).
   */
  digestApart: ((privateKey: KeyObject, by: string) => Promise<ScheduledDigest | null>) | null;
}

/**
 * An audit that cannot be made as asked: an unknown trainee, a digest file that is not one or was
 * changed. The message says why, in the words an operator reads (the CLI prints it and exits 1).
 */
export class AuditRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditRefused';
  }
}
