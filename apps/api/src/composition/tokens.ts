/** Injection token of the pino logger. */
export const LOGGER = Symbol('LOGGER');

/** Injection token of the opened stores (`Stores` of libs/platform; closed by `Projections` at shutdown). */
export const STORES = Symbol('STORES');

/** Injection token of this process's metrics (`ProcessMetrics` of libs/platform), null when METRICS_PORT is unset. */
export const METRICS = Symbol('METRICS');
