import { Inject, type OnApplicationShutdown } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DIGEST_TREE_STORE, keyFingerprint, type DigestTreeStore, type InclusionProof, type SignedDigest } from '@app/audit';
import { findOwnTrainee, TRAINEE_READ_MODEL, type TraineeReadModel } from '@app/trainees/read';
import { traineeStreamId } from '@app/trainees/decider';
import type { Caller } from '@app/trainees/write';
import { AuditDigestNotFound } from '../errors/errors';

/** `traineeId`: the raw query value. */
export class AuditDigestQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string | undefined,
  ) {}
}

/** Snake_case, served as is; `inclusion` null when the trainee's stream began after the digest. */
export type AuditDigestAnswer = SignedDigest & {
  key_fingerprint: string;
  trainee_id?: string;
  inclusion?: InclusionProof | null;
};

/**
 * The latest digest kept and, for one of the caller's trainees, its head's audit path (docs/DESIGN.md "Inclusion proofs"). Throws
 * {@link AuditDigestNotFound} before any digest, NotFound for an unknown or another provider's trainee.
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

  /** Its one user in the API. */
  async onApplicationShutdown(): Promise<void> {
    await this.trees.close();
  }
}
