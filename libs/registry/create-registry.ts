import { HttpRegistry } from './http-registry';
import type { TeacherRegistry } from './registry.port';
import { SandboxRegistry } from './sandbox-registry';

/** The part of the configuration that chooses the registry (docs/operations.md "Configuration"). */
export interface RegistryConfig {
  appEnv: 'sandbox' | 'production';
  /** Base URL of the HTTP registry, or null. */
  registryUrl: string | null;
  registryToken: string | null;
  /** The sandbox registry's delays, in ms, counted from the request's event time. */
  registryTrnDelayMs: number;
  registryAwardDelayMs: number;
}

/**
 * The registry of a configuration: the HTTP adapter when `REGISTRY_URL` is set; otherwise the
 * sandbox registry in `APP_ENV=sandbox`; otherwise none (production without a registry: TRNs and
 * awards wait, and the caller logs a warning).
 */
export function createRegistry(config: RegistryConfig): TeacherRegistry | null {
  if (config.registryUrl) return new HttpRegistry(config.registryUrl, { token: config.registryToken ?? undefined });
  if (config.appEnv === 'sandbox')
    return new SandboxRegistry({ trnDelayMs: config.registryTrnDelayMs, awardDelayMs: config.registryAwardDelayMs });
  return null;
}
