import type { Logger } from 'pino';
import { stopTracing } from '@app/telemetry/tracing';

/**
 * On SIGTERM or SIGINT: close the app (the projector applies what it holds and stores its
 * checkpoint; the stores close), flush the spans held when tracing is on, then exit 0, or 1 if
 * closing failed. Nest's own shutdown hooks re-raise the signal after closing, which makes a clean
 * stop look like a crash to supervisors.
 */
export function exitOnSignal(app: { close(): Promise<void> }, logger: Logger): void {
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    app
      .close()
      .then(() => stopTracing())
      .then(
        () => process.exit(0),
        (err) => {
          logger.error({ err }, 'error while shutting down');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
