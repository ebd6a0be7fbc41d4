import { Module } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Clock, RateLimiter } from '@ppfile/infra';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { Units } from './units';

/** Per-minute limits (Redis, shared by every replica) and monthly units (the ledger in PostgreSQL). */
@Module({
  providers: [
    {
      provide: RateLimiter,
      useFactory: (redis: Redis, clock: Clock, config: GatewayConfig) =>
        new RateLimiter(redis, () => clock.now().getTime(), `${config.queue.prefix}:rl`),
      inject: [Redis, Clock, GATEWAY_CONFIG],
    },
    Units,
  ],
  exports: [RateLimiter, Units],
})
export class LimitsModule {}
