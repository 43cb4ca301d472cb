import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';
import { OpenApiDocuments } from './openapi-documents';

/**
 * The served OpenAPI documents: GET /api/{version}/openapi.json and .yaml ({@link OpenApiDocuments},
 * built once the application is created: `create-app.ts`), and the page at /api-docs.
 */
@Module({ controllers: [OpenApiController], providers: [OpenApiDocuments] })
export class ApiDocsModule {}
