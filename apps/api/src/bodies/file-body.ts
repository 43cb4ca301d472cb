import { UnsupportedMediaTypeException } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/** The media type of a file sent as a request's body: an upload's CSV file. */
export const FILE_MEDIA_TYPE = 'text/csv';

/** The 415 message of a body that is not sent as a file. */
export const NOT_A_FILE = `Send the file as the body, with Content-Type: ${FILE_MEDIA_TYPE}`;

/** What {@link TakesFile} sets on the route's Fastify config. */
interface FileBodyConfig {
  fileBody?: boolean;
}

/**
 * An operation whose body is a file (`text/csv`, read as bytes by the parser of create-app.ts):
 * a body of any other media type, or none, answers 415 before it is read
 * ({@link refuseBodiesNotFiles}), rather than going to the JSON parser.
 */
export const TakesFile = (): MethodDecorator => RouteConfig({ fileBody: true } satisfies FileBodyConfig);

/**
 * Registers the `preParsing` hook that refuses, on a route marked {@link TakesFile}, a request
 * whose `Content-Type` is not {@link FILE_MEDIA_TYPE} (parameters such as `charset` aside): 415
 * `UnsupportedMediaType` in the errors shape (docs/operations.md "Adding trainees from a file"),
 * before a byte of the body is read, so a megabyte sent as `text/plain` is neither parsed as JSON
 * (400) nor read to its limit (413).
 */
export function refuseBodiesNotFiles(fastify: FastifyInstance): void {
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (!(request.routeOptions.config as FileBodyConfig | undefined)?.fileBody) return payload;
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (mediaType !== FILE_MEDIA_TYPE) throw new UnsupportedMediaTypeException(NOT_A_FILE);
    return payload;
  });
}
