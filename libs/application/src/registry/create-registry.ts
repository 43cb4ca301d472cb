import type { AppConfig } from '../config';
import { HttpRegistry } from './http-registry';
import type { TeacherRegistry } from './registry.port';
import { SandboxRegistry } from './sandbox-registry';

/**
 * The registry of a configuration: the HTTP adapter when `REGISTRY_URL` is set; otherwise the
 * sandbox registry in `APP_ENV=sandbox`; otherwise none (production without a registry: TRNs and
 * awards wait, and the caller logs a warning).
 */
export function createRegistry(
  config: Pick<AppConfig, 'appEnv' | 'registryUrl' | 'registryToken' | 'registryTrnDelayMs' | 'registryAwardDelayMs'>,
): TeacherRegistry | null {
  if (config.registryUrl) return new HttpRegistry(config.registryUrl, { token: config.registryToken ?? undefined });
  if (config.appEnv === 'sandbox') return new SandboxRegistry({ trnDelayMs: config.registryTrnDelayMs, awardDelayMs: config.registryAwardDelayMs });
  return null;
}
