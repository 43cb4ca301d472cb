import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { AppConfig } from '@app/runtime/process';
import { errorsBody } from '../errors/errors';

/** docs/operations.md "Configuration", "Limits". */
export type ServerBounds = Pick<
  AppConfig,
  'requestTimeoutMs' | 'headersTimeoutMs' | 'connectionTimeoutMs' | 'keepAliveTimeoutMs' | 'maxRequestsPerSocket' | 'maxConnections'
>;

/**
 * Fastify's options for the bounds (docs/operations.md "Limits"): the whole-request deadline (a byte-a-second client is cut off), the
 * headers' (never longer, as Node requires), idle and keep-alive timeouts, requests per socket, the deadline check every quarter of the
 * shorter (at most 30 s, Node's own), {@link answerClientError}. Connections: {@link limitConnections}.
 */
export function serverOptions(bounds: ServerBounds): FastifyHttpOptions<Server> {
  const request = bounds.requestTimeoutMs;
  const headers = request > 0 ? Math.min(bounds.headersTimeoutMs, request) : bounds.headersTimeoutMs;
  const shortest = Math.min(...[request, headers].filter((ms) => ms > 0), 120_000);
  return {
    requestTimeout: request,
    connectionTimeout: bounds.connectionTimeoutMs,
    keepAliveTimeout: bounds.keepAliveTimeoutMs,
    maxRequestsPerSocket: bounds.maxRequestsPerSocket,
    http: {
      requestTimeout: request,
      headersTimeout: headers,
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(shortest / 4))),
    },
    clientErrorHandler: answerClientError,
  };
}

/** `MAX_CONNECTIONS` (0: no limit): more are closed at once. */
export function limitConnections(server: { maxConnections: number }, bounds: ServerBounds): void {
  if (bounds.maxConnections > 0) server.maxConnections = bounds.maxConnections;
}

/**
 * `Connection: close` on an answer sent before the body was read (401 without a token, 403, 429, all in `onRequest`), so Node closes the
 * socket rather than read the body: a byte-a-second client without a token would hold it until the request timeout.
 */
export function closeAfterUnreadBody(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) void reply.header('connection', 'close');
    return payload;
  });
}

/**
 * Node's `clientError`: 408 too slow, 431 headers too large, else 400, then close. A body (the errors shape) only when the bytes show a
 * request line not HEAD: an answer to HEAD has none (RFC 9110 §9.3.2) or a keep-alive client would misread it. `Content-Length` always.
 */
export function answerClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request timeout']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request header fields too large']
        : [400, 'Bad request'];
  const start = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, 2048).toString('latin1') : '';
  const method = /^([A-Z]+) \S+ HTTP\/1\.[01]\r?\n/.exec(start)?.[1];
  const body = method && method !== 'HEAD' ? JSON.stringify(errorsBody(STATUS_CODES[status]!.replace(/ /g, ''), [message])) : '';
  if (socket.writable) {
    const type = body ? 'Content-Type: application/json; charset=utf-8\r\n' : '';
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
