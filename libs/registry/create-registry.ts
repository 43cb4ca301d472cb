import { HttpRegistry } from './http-registry';
import type { TeacherRegistry } from './registry.port';
import { SandboxRegistry } from './sandbox-registry';

/** docs/operations.md "Configuration". */
export interface RegistryConfig {
  appEnv: 'sandbox' | 'production';
  registryUrl: string | null;
  registryToken: string | null;
  /** The sandbox registry's delays in ms. */
  registryTrnDelayMs: number;
  registryAwardDelayMs: number;
}

/** HTTP when `REGISTRY_URL` is set, else the sandbox's in `APP_ENV=sandbox`, else null (TRNs and awards wait; the caller warns). */
export function createRegistry(config: RegistryConfig): TeacherRegistry | null {
  if (config.registryUrl) return new HttpRegistry(config.registryUrl, { token: config.registryToken ?? undefined });
  if (config.appEnv === 'sandbox')
    return new SandboxRegistry({ trnDelayMs: config.registryTrnDelayMs, awardDelayMs: config.registryAwardDelayMs });
  return null;
}
