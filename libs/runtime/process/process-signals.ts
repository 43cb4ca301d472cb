import type { Logger } from 'pino';
import { stopTracing } from '@app/runtime/tracing';

let shutdown: ((code: number) => void) | null = null;

/** SIGTERM, SIGINT: close the app, flush spans, exit 0 (1 if closing failed); Nest's hooks re-raise the signal, as if a crash. */
export function exitOnSignal(app: { close(): Promise<void> }, logger: Logger): void {
  let closing = false;
  const stop = (code: number) => {
    if (closing) return;
    closing = true;
    app
      .close()
      .then(() => stopTracing())
      .then(
        () => process.exit(code),
        (err) => {
          logger.error({ err }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  shutdown = stop;
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    stop(0);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

/** Exit 1 after an unrecoverable error, for the supervisor to restart; closes the app first once {@link exitOnSignal} was called. */
export function exitOnFatal(logger: { fatal(context: object, message: string): void }, message: string, error: unknown): void {
  logger.fatal({ err: error }, message);
  if (shutdown) shutdown(1);
  else process.exit(1);
}
