import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_CONFIG, processMetrics, type AppConfig } from '@app/runtime/process';
import { ApiAuthenticator, ApiGuard, PublicVersionGuard } from './auth/api.guard';
import { TokenUse } from './auth/token-use';
import { storeProviders } from './composition/stores.providers';
import { StorageFaults } from './composition/storage-faults';
import { CachedTokens } from './composition/token-cache';
import { LOGGER, METRICS } from './composition/tokens';
import { VersionRegistry } from './composition/versions';
import { Idempotency } from './idempotency/idempotency';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { MetricsListener } from './observability/metrics-listener';

/**
 * What every area of the API uses and none owns (docs/DESIGN.md "The shared kernel"), built for one
 * configuration and logger and given to every module (`@Global`): the configuration, the logger and
 * the process's metrics under their tokens, the served versions, the ports under their injection
 * tokens with the projections that keep the read models (composition/), the token's authentication
 * and its guards (auth/), the idempotency keys and their interceptor (idempotency/). Its providers
 * start (the stores open, the projector catches up) before any area's, and stop after them.
 */
@Global()
@Module({})
export class SharedKernelModule {
  /** The module for `config` (from the environment: `loadConfig`) and `logger`; its ports open when the application is created. */
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    const providers: Provider[] = [
      { provide: APP_CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      // The API's families, and the projector's when it projects here (docs/observability.md "Metrics").
      { provide: METRICS, useValue: processMetrics(config, config.projector === 'in-process' ? ['api', 'projector'] : ['api'], logger) },
      MetricsListener,
      StorageFaults,
      { provide: VersionRegistry, useValue: new VersionRegistry(config) },
      ...storeProviders(),
      Idempotency,
      IdempotencyInterceptor,
      TokenUse,
      CachedTokens,
      ApiAuthenticator,
      ApiGuard,
      PublicVersionGuard,
    ];
    return { module: SharedKernelModule, providers, exports: providers.map((p) => ('provide' in p ? p.provide : p)) };
  }
}
