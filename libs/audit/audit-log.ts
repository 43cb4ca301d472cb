import type { KeyObject } from 'node:crypto';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import type { ScheduledDigest } from './digest-schedule';
import type { DigestTreeStore } from './digest-tree';
import type { LogVerification, VerifyLogOptions } from './verify-log';

/** The log as the audit reads and records it, composed by each process from its stores (`Stores.auditLog`, libs/composition). */
export interface AuditLog {
  /** Sealed values sealed, as the chain hashes them. */
  storedLog: StoredLog;
  /** Records a signed digest; reads a stream opened. */
  eventStore: EventStore;
  /** `verifyLog` of {@link storedLog}, or the embedded store's two-thread check. */
  verify(options: VerifyLogOptions): Promise<LogVerification>;
  /** The caller closes it. */
  openTrees(): Promise<DigestTreeStore>;
  /** Signs the increment on a thread of its own where the store can (`digestInThread`); null: in the calling thread (`digestSince`). */
  digestApart: ((privateKey: KeyObject, by: string) => Promise<ScheduledDigest | null>) | null;
}

/** An unknown trainee, or a digest file that is not one or was changed; the message is for the operator (the CLI exits 1). */
export class AuditRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditRefused';
  }
}
