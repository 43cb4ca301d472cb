import type { Logger } from 'pino';
import { stopTracing } from '@app/runtime/tracing';

/** Closes the running app and exits with `code`; set by {@link exitOnSignal}, used by {@link exitOnFatal}. */
let shutdown: ((code: number) => void) | null = null;

/**
 * On SIGTERM or SIGINT: close the app (the projector applies what it holds and stores its
 * checkpoint; the stores close), flush the spans held when tracing is on, then exit 0, or 1 if
 * closing failed. Nest's own shutdown hooks re-raise the signal after closing, which makes a clean
 * stop look like a crash to supervisors.
 */
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

/**
 * Ends the process with exit code 1 after an error it cannot recover from in place (a subscription
 * to the event log that cannot go on: docs/DESIGN.md "Failures of the subscription"), so that its
 * supervisor restarts it and the restart shows. Logs `message` and `error` at fatal, then closes
 * the app as a signal would once {@link exitOnSignal} has been called; before that, exits at once.
 */
export function exitOnFatal(logger: { fatal(context: object, message: string): void }, message: string, error: unknown): void {
  logger.fatal({ err: error }, message);
  if (shutdown) shutdown(1);
  else process.exit(1);
}
