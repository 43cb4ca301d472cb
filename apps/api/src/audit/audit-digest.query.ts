import { Inject, type OnApplicationShutdown } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DIGEST_TREE_STORE, keyFingerprint, type DigestTreeStore, type InclusionProof, type SignedDigest } from '@app/audit';
import { findOwnTrainee, TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';
import { traineeStreamId } from '@app/trainees/decider';
import type { Caller } from '@app/trainees/write';
import { AuditDigestNotFound } from '../errors/errors';

/** The latest signed digest, for `caller`; with `traineeId` (the raw query value), the proof of that trainee's head in it. */
export class AuditDigestQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string | undefined,
  ) {}
}

/**
 * The answer of GET /audit/digest (snake_case, served as is): the signed digest's fields, the
 * fingerprint of the key that signed it (SHA-256 of its raw 32 bytes, hex), and the trainee's
 * `inclusion` proof when one was asked for (null when its stream began after the digest).
 */
export type AuditDigestAnswer = SignedDigest & {
  key_fingerprint: string;
  trainee_id?: string;
  inclusion?: InclusionProof | null;
};

/**
 * Answers the latest signed digest the service keeps (docs/DESIGN.md "Signed digests", "Inclusion
 * proofs") and, for one of the caller's trainees, the audit path from its stream's head (as of the
 * digest) to the digest's root. Errors: {@link AuditDigestNotFound} (404) before any digest is
 * signed; NotFound (404 `Trainee(s) not found`) for an unknown trainee or another provider's
 * (docs/DESIGN.md property 6).
 */
@QueryHandler(AuditDigestQuery)
export class AuditDigestHandler implements IQueryHandler<AuditDigestQuery, AuditDigestAnswer>, OnApplicationShutdown {
  constructor(
    @Inject(DIGEST_TREE_STORE) private readonly trees: DigestTreeStore,
    @Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel,
  ) {}

  async execute(query: AuditDigestQuery): Promise<AuditDigestAnswer> {
    if (query.traineeId === undefined) {
      const kept = await this.trees.latest();
      if (!kept) throw new AuditDigestNotFound();
      return { ...kept.digest, key_fingerprint: keyFingerprint(kept.digest.public_key) };
    }
    const own = await findOwnTrainee(this.trainees, query.caller.ukprn, query.traineeId);
    const kept = await this.trees.latest(traineeStreamId(own.trainee_id));
    if (!kept) throw new AuditDigestNotFound();
    return {
      ...kept.digest,
      key_fingerprint: keyFingerprint(kept.digest.public_key),
      trainee_id: own.trainee_id,
      inclusion: kept.inclusion,
    };
  }

  /** Closes the digest tree store (this handler is its one user in the API). */
  async onApplicationShutdown(): Promise<void> {
    await this.trees.close();
  }
}
