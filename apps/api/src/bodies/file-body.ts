import { UnsupportedMediaTypeException } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/** An upload's CSV file sent as the body. */
export const FILE_MEDIA_TYPE = 'text/csv';

export const NOT_A_FILE = `Send the file as the body, with Content-Type: ${FILE_MEDIA_TYPE}`;

interface FileBodyConfig {
  fileBody?: boolean;
}

/** The body is a file (read as bytes by create-app.ts's parser): any other media type, or none, answers 415 before it is read. */
export const TakesFile = (): MethodDecorator => RouteConfig({ fileBody: true } satisfies FileBodyConfig);

/**
 * On a {@link TakesFile} route, a `Content-Type` other than {@link FILE_MEDIA_TYPE} (parameters aside) answers 415 in `preParsing`,
 * before a byte is read: a megabyte of `text/plain` is neither parsed as JSON nor read to its limit.
 */
export function refuseBodiesNotFiles(fastify: FastifyInstance): void {
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (!(request.routeOptions.config as FileBodyConfig | undefined)?.fileBody) return payload;
    const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (mediaType !== FILE_MEDIA_TYPE) throw new UnsupportedMediaTypeException(NOT_A_FILE);
    return payload;
  });
}
