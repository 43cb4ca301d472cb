import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiExcludeController, type OpenAPIObject } from '@nestjs/swagger';
import { PublicVersionGuard } from '../auth/api.guard';
import { VersionRequested } from '../auth/request-context';
import { OpenApiDocuments } from './openapi-documents';
import { PublicApiRoute } from '../admission/authenticate-early';

@Controller('api/:api_version')
@UseGuards(PublicVersionGuard)
@ApiExcludeController()
export class OpenApiController {
  constructor(private readonly documents: OpenApiDocuments) {}

  /**
   * GET /api/{version}/openapi.json (the `.json` suffix is optional), without a token: the version's
   * OpenAPI 3.1 document (application/json). A version that is not served answers as an unknown route.
   */
  @PublicApiRoute()
  @Get('openapi')
  json(@VersionRequested() version: string): OpenAPIObject | undefined {
    return this.documents.json(version);
  }

  /** GET /api/{version}/openapi.yaml, without a token: the same document as YAML (application/yaml). */
  @PublicApiRoute()
  @Get('openapi.yaml')
  @Header('content-type', 'application/yaml; charset=utf-8')
  yaml(@VersionRequested() version: string): string | undefined {
    return this.documents.yamlText(version);
  }
}
