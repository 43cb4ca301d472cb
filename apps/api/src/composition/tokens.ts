/** Injection token of the pino logger. */
export const LOGGER = Symbol('LOGGER');

/** Injection token of the opened stores (`Stores` of libs/composition; closed by `Projections` at shutdown). */
export const STORES = Symbol('STORES');

/** Injection token of this process's metrics (`ProcessMetrics` of libs/runtime/process/telemetry.ts), null when METRICS_PORT is unset. */
export const METRICS = Symbol('METRICS');

/** Injection token of the service keyring (`ServiceKeyring`; `loadServiceKey`, docs/operations.md "The service key"). */
export const SERVICE_KEY = Symbol('SERVICE_KEY');
