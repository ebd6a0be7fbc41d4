import { Module } from '@nestjs/common';
import { Clock } from '@ppfile/infra';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { LimitsModule } from '../limits/limits.module';
import { ApiKeyMiddleware } from './api-key.middleware';
import { KeyCache } from './key-cache';

/** Who is calling: API keys (with a short in-process cache) and the per-minute limits they fall under. */
@Module({
  imports: [LimitsModule],
  providers: [
    {
      provide: KeyCache,
      useFactory: (config: GatewayConfig, clock: Clock) =>
        new KeyCache(config.authCacheSeconds * 1000, () => clock.now().getTime()),
      inject: [GATEWAY_CONFIG, Clock],
    },
    ApiKeyMiddleware,
  ],
  // The middleware is applied by AppModule, in order after the request id: its dependencies go with it.
  exports: [ApiKeyMiddleware, KeyCache, LimitsModule],
})
export class AuthModule {}
