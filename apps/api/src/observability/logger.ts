import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The service's structured JSON logger (docs/DESIGN.md `LOG_LEVEL`), writing to stdout or to
 * `destination` (a test's buffer).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return destination
    ? pino({ level, base: { service: 'trainee-records' } }, destination)
    : pino({ level, base: { service: 'trainee-records' } });
}

/** Nest's logger interface on top of pino, so framework messages are structured JSON too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  /** Not Nest's `ExceptionHandler`: it logs a failed start before rethrowing it to `main`, which says it once, on stderr. */
  error(message: unknown, trace?: string, context?: string): void {
    if (context === 'ExceptionHandler') return;
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
