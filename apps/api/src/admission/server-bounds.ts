import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { AppConfig } from '@app/runtime/process';
import { errorsBody } from '../errors/errors';

/** The server bounds of the configuration (docs/operations.md "Configuration" and "Limits"). */
export type ServerBounds = Pick<
  AppConfig,
  'requestTimeoutMs' | 'headersTimeoutMs' | 'connectionTimeoutMs' | 'keepAliveTimeoutMs' | 'maxRequestsPerSocket' | 'maxConnections'
>;

/**
 * Fastify's server options for the bounds (docs/operations.md "Limits", time and connections): the whole-request deadline
 * (headers and body, so a client sending a byte a second is cut off), the headers deadline (never
 * longer than the request's, as Node requires), the idle-socket and keep-alive timeouts, the
 * requests per socket, how often Node checks the deadlines (a quarter of the shorter one, at most
 * every 30 s, Node's own interval) and {@link answerClientError}. The connection limit is set on
 * the server once built ({@link limitConnections}).
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

/** Sets the most connections the server keeps open (`MAX_CONNECTIONS`; 0: no limit): more are closed at once. */
export function limitConnections(server: { maxConnections: number }, bounds: ServerBounds): void {
  if (bounds.maxConnections > 0) server.maxConnections = bounds.maxConnections;
}

/**
 * Closes the connection after an answer sent before the request's body was read in full
 * (docs/operations.md "Limits"): the 401 of a request without a token, a blocklist's 403, a rate
 * limit's 429, all answered in `onRequest`, before the body. The answer says `Connection: close`,
 * and Node closes the socket once it is written, instead of reading the rest of the body to keep the
 * connection alive: a client sending a byte a second without a token would otherwise hold its
 * socket until the request timeout.
 */
export function closeAfterUnreadBody(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) void reply.header('connection', 'close');
    return payload;
  });
}

/**
 * Answers a request the HTTP parser refused (Node's `clientError`): 408 when the request took too
 * long, 431 when its headers are too large, 400 otherwise, then closes the connection. The answer
 * has a body (the errors shape, docs/spec/trainee-records-api.md "Errors") only when the refused
 * bytes show the request line of a method other than HEAD: an answer to HEAD never has one
 * (RFC 9110 §9.3.2), or a keep-alive client would read it as the start of the next answer.
 * `Content-Length` always says how much follows.
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
