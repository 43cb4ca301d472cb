import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Answers, ApiVersionParam, ForVersionsWith, NotFoundAnswer, Operation, RateLimited } from '../openapi/operation.decorators';
import { echoValue, referenceDataNotAvailableMessage, unknownReferenceFieldMessage, type VersionContract } from '@app/trainees/contract';
import { PublicVersionGuard } from '../auth/api.guard';
import { ReferenceDataNotFound } from '../errors/errors';
import { Contract, VersionRequested } from '../auth/request-context';
import { PublicApiRoute } from '../admission/authenticate-early';
import { QUERY_VALUE_MAX_CHARS } from '../query-params/query-values';

@Controller('api/:api_version/reference-data')
@UseGuards(PublicVersionGuard)
@ApiTags('Reference data')
@ApiVersionParam()
@RateLimited()
export class ReferenceDataController {
  /**
   * GET /api/{version}/reference-data[?field=<key>], without a token (docs/reference/API-FACTS.md
   * §17): 200 with every coded list (the bare object, not wrapped in `data`), or with `field` the
   * one list's object. 404 `Reference data field '<key>' not found` for an unknown key; 404
   * `Reference data is not available for version '<version>'` where the version has no such
   * endpoint. An empty `field` counts as absent.
   */
  @PublicApiRoute()
  @Get()
  @Operation(
    'getReferenceData',
    'The coded value lists (no token needed)',
    'Every list, or with `field` one list: its metadata and entries (codes with display names).',
  )
  @ForVersionsWith('referenceData')
  @ApiQuery({
    name: 'field',
    required: false,
    description: 'One list by name, such as `sex` or `withdrawal_reasons`; any other name answers 404.',
    schema: { type: 'string', maxLength: QUERY_VALUE_MAX_CHARS, example: 'sex' },
  })
  @Answers(200, 'The lists, or one list.', {
    oneOf: [{ $ref: '#/components/schemas/ReferenceData' }, { $ref: '#/components/schemas/ReferenceDataField' }],
  })
  @NotFoundAnswer("Reference data field '<field>' not found.")
  get(@Contract() contract: VersionContract, @VersionRequested() requested: string, @Query('field') field: unknown): unknown {
    const body = contract.referenceData;
    if (!body) throw new ReferenceDataNotFound(referenceDataNotAvailableMessage(requested));
    if (field === undefined || field === '') return body;
    if (typeof field !== 'string' || !Object.prototype.hasOwnProperty.call(body, field)) {
      throw new ReferenceDataNotFound(unknownReferenceFieldMessage(echoValue(field)));
    }
    return body[field];
  }
}
