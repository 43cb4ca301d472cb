import { Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiQuery } from '@nestjs/swagger';
import type { Caller } from '@app/trainees/write';
import { Answers, NotFoundAnswer, Operation } from '../openapi/operation.decorators';
import { ApiController } from '../openapi/api-controller.decorator';
import { CurrentCaller } from '../auth/request-context';
import { AuditDigestQuery, type AuditDigestAnswer } from './audit-digest.query';

/** As the id path parameters. */
const TRAINEE_ID_MAX = 255;

/** The latest signed digest, for auditors (docs/operations.md "Signed digests"); beyond the spec. */
@ApiController('audit/digest', 'Audit')
export class AuditDigestController {
  constructor(private readonly queries: QueryBus) {}

  /**
   * GET /api/{version}/audit/digest[?trainee_id=<id>]: 200 `{data: AuditDigest}` with `key_fingerprint`, and for one of the caller's
   * trainees its `inclusion` proof (RFC 9162 §2.1.3; null when its stream began after the digest). The same in every version.
   * 404 when none is signed, or for an unknown or another provider's trainee; 401.
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
