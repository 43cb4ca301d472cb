import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import type { VersionRegistry } from '../composition/versions';

/**
 * The docs page at `/api-docs`: Swagger UI with its assets served by the service itself (no CDN),
 * one entry per served version, reading `/api/<version>/openapi.json`.
 */
export function serveApiDocsPage(app: NestFastifyApplication, versions: VersionRegistry): void {
  const urls = [...versions.names].reverse().map((name) => ({ url: `/api/${name}/openapi.json`, name }));
  const placeholder = { openapi: '3.1.0', info: { title: 'Trainee records API', version: versions.latest }, paths: {} };
  SwaggerModule.setup('api-docs', app, placeholder, {
    raw: false,
    explorer: true,
    customSiteTitle: 'Trainee records API',
    // `spec: {}` leaves the page to the version list (the first, the newest, opens).
    swaggerOptions: { spec: {}, urls, 'urls.primaryName': versions.latest, persistAuthorization: true },
  });
}
