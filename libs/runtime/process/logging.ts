/** A pino-style logger: context first, then the message. */
export interface ContextLogger {
  info(context: object, message: string): void;
  warn(context: object, message: string): void;
  error(context: object, message: string): void;
  fatal(context: object, message: string): void;
}

/** A logger as the libraries take it: the message first, then an optional context. */
export interface MessageLogger {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/**
 * `logger` (pino: context first) as the libraries' loggers (message first): the projector, the
 * registry process manager, the webhook dispatcher, the event store's subscriptions and the
 * metrics all take this shape.
 */
export function messageFirst(logger: Pick<ContextLogger, 'info' | 'warn' | 'error'>): MessageLogger {
  return {
    info: (message, context) => logger.info(context ?? {}, message),
    warn: (message, context) => logger.warn(context ?? {}, message),
    error: (message, context) => logger.error(context ?? {}, message),
  };
}
