import { newEventId, registerEventSchemas, toEventData, type EventStore } from '@app/event-sourcing';
import type { SignedDigest } from './digest';

/** The stream the signed digests are recorded in (docs/DESIGN.md "Signed digests"): one event per digest. */
export const AUDIT_DIGEST_STREAM = 'audit-digests';

/** The event a signed digest is recorded as: the digest itself (no personal data: positions, counts, hashes, a public key). */
export const AUDIT_DIGEST_SIGNED = 'AuditDigestSigned';

registerEventSchemas({ [AUDIT_DIGEST_SIGNED]: 1 });

/**
 * Records `digest` in the log as an {@link AUDIT_DIGEST_SIGNED} event of {@link AUDIT_DIGEST_STREAM}
 * (at a position after the one it covers), `by` as its actor; resolves with the event's position.
 */
export async function recordDigest(store: EventStore, digest: SignedDigest, by: string): Promise<number> {
  const [event] = toEventData([{ type: AUDIT_DIGEST_SIGNED, data: { ...digest, by } }], { occurredAt: digest.time }, newEventId);
  return (await store.appendToStream(AUDIT_DIGEST_STREAM, [event])).position;
}
