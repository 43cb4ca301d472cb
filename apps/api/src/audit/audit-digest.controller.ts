import { Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import type { Caller } from '@app/trainees/write';
import { Answers, NotFoundAnswer, Operation } from '../openapi/operation.decorators';
import { ApiController } from '../openapi/api-controller.decorator';
import { CurrentCaller } from '../auth/request-context';
import { AuditDigestQuery, type AuditDigestAnswer } from './audit-digest.query';

/** The longest `trainee_id` query value looked up (as the id path parameters). */
const TRAINEE_ID_MAX = 255;

/** The service's latest signed digest of its log, for auditors (docs/operations.md "Signed digests"; an extension beyond the spec). */
@ApiController('audit/digest', 'Audit')
export class AuditDigestController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/audit/digest[?trainee_id=<id>]: 200 `{data: AuditDigest}`, the latest
   * digest the service signed (docs/DESIGN.md "Signed digests": `format`, `position`, `time`,
   * `streams`, `root`, `public_key` as an Ed25519 JWK, `signature`) with `key_fingerprint`; with
   * `trainee_id`, one of the caller's trainees, also `trainee_id` and `inclusion`: the proof that its
   * stream's head as of the digest is a leaf of the digest's Merkle tree (`stream_id`, `revision`,
   * `hash`, `leaf_index`, `tree_size`, `audit_path`; RFC 9162 §2.1.3), or null when its stream began
   * after the digest's position. The same answer in every version.
   *
   * Errors: 404 `No audit digest has been signed yet`; 404 `Trainee(s) not found` for an unknown
   * trainee or another provider's (never 403, docs/DESIGN.md property 6); 401 without a valid token.
   */
  @Get()
  @Operation(
    'getAuditDigest',
    "The latest signed digest of the service's log (an extension of this service)",
    'What an auditor holds a trainee\'s history to (docs/operations.md "Verifying the history"): the signed Merkle root over every ' +
      "stream's head, the key that signed it, and with `trainee_id` the proof of that trainee's head in it.",
  )
  @ApiQuery({
    name: 'trainee_id',
    required: false,
    description: "One of the caller's trainees: answer the proof of its stream's head in the digest too.",
    schema: { type: 'string', minLength: 1, maxLength: TRAINEE_ID_MAX },
  })
  @Answers(200, 'The latest signed digest, and the inclusion proof asked for.', 'AuditDigestResponse')
  @NotFoundAnswer("No digest signed yet, or Trainee(s) not found (another provider's included).")
  async digest(@CurrentCaller() caller: Caller, @Query('trainee_id') traineeId: unknown): Promise<{ data: AuditDigestAnswer }> {
    const id = typeof traineeId === 'string' && traineeId !== '' ? traineeId.slice(0, TRAINEE_ID_MAX + 1) : undefined;
    return { data: await this.queries.execute<AuditDigestQuery, AuditDigestAnswer>(new AuditDigestQuery(caller, id)) };
  }
}
