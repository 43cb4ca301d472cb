import { type StoredEventText, type ChainFault, checkStreamChain, type LogPosition } from '@app/event-sourcing';

/** The head a signed digest holds of one stream: the revision of its last event then, and that event's hash. */
export interface SignedHead {
  revision: number;
  hash: string;
}

/**
 * What one stream's events (`events`, the whole stream as stored, in revision order, with their
 * positions) show against the head a digest of `position` signed for it (`signed`; undefined: the
 * digest holds none), docs/DESIGN.md "Signed digests":
 * - an event inside the signed part (revision ≤ the signed revision) stored after the digest's
 *   position, or an event at or before that position of a stream the digest does not hold, is
 *   `inserted`;
 * - signed revisions the stream no longer holds are `missing` (taken from its end);
 * - a head whose hash is not the signed one, with nothing put in before it, is `altered`.
 * Faults of the chain itself are `checkStreamChain`'s; these are what the chain alone cannot show.
 */
export function checkAgainstDigest(
  events: readonly StoredEventText[],
  signed: SignedHead | undefined,
  position: LogPosition,
): ChainFault[] {
  const faults: ChainFault[] = [];
  const streamId = events[0]?.streamId;
  if (signed === undefined) {
    for (const e of events) {
      if (e.position !== undefined && e.position <= position) {
        faults.push({
          streamId: e.streamId,
          revision: e.revision,
          kind: 'inserted',
          detail: `stored at position ${e.position}, inside the digest of position ${position}, which holds no head of this stream`,
        });
      }
    }
    return faults;
  }
  const inside = events.filter((e) => e.revision <= signed.revision);
  for (const e of inside) {
    if (e.position !== undefined && e.position > position) {
      faults.push({
        streamId: e.streamId,
        revision: e.revision,
        kind: 'inserted',
        detail: `stored at position ${e.position}, after the digest of position ${position}, inside the part it signed`,
      });
    }
  }
  const last = inside[inside.length - 1];
  if (last === undefined || last.revision < signed.revision) {
    for (let r = (last?.revision ?? -1) + 1; r <= signed.revision; r++) {
      faults.push({
        streamId,
        revision: r,
        kind: 'missing',
        detail: `the digest of position ${position} holds this stream up to revision ${signed.revision}`,
      });
    }
    return faults;
  }
  if (faults.length === 0 && checkStreamChain(inside).headHash !== signed.hash) {
    faults.push({
      streamId,
      revision: signed.revision,
      kind: 'altered',
      detail: `not the event the digest of position ${position} signed at this revision`,
    });
  }
  return faults;
}

/** The faults of a stream the digest of `position` holds up to `signed.revision` that the log no longer has at all. */
export function streamGone(streamId: string, signed: SignedHead, position: LogPosition): ChainFault[] {
  return Array.from({ length: signed.revision + 1 }, (_, revision) => ({
    streamId,
    revision,
    kind: 'missing' as const,
    detail: `the stream is gone; the digest of position ${position} holds it up to revision ${signed.revision}`,
  }));
}
