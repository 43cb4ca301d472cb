/**
 * The composition shared by the three apps (API, projector, admin CLI): configuration from the
 * environment, the stores it names, process signals (docs/architecture.md "Libraries").
 */
export * from './config';
export * from './logging';
export * from './stores';
export * from './process-signals';
export * from './webhooks';
export * from './telemetry';
