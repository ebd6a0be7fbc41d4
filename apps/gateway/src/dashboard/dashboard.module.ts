import { Module } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Clock } from '@ppfile/infra';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { LimitsModule } from '../limits/limits.module';
import { DashboardAccountController } from './account.controller';
import { DashboardAuthController } from './auth.controller';
import { DashboardAuth } from './dashboard-auth';
import { DeviceCookies } from './device-cookies';
import { DashboardFilesController } from './files.controller';
import { DashboardKeysController } from './keys.controller';
import { DashboardSessionMiddleware } from './session.middleware';
import { SignInThrottle } from './sign-in-throttle';
import { DashboardFallbackController, DashboardStaticController } from './static.controller';
import { DashboardTryController } from './try.controller';
import { DashboardUsageController } from './usage.controller';

/**
 * The organizations' dashboard (API.md §12, SERVICE.md §5) under /dashboard: server-rendered pages
 * in English and French for the people of an organization — sign-in (users and sessions in
 * PostgreSQL), API keys, usage, files and their downloads, and Try it (a CSV checked in memory with
 * a test key's limits). docs/dashboard.md describes it for its users; html.ts says why the pages
 * are tagged templates rather than a template engine.
 *
 * AppModule applies DashboardSessionMiddleware (and the form body parser) in order after the
 * request id; the controllers' own filter answers every failure as a page.
 */
@Module({
  imports: [LimitsModule],
  controllers: [
    DashboardStaticController,
    DashboardAuthController,
    DashboardUsageController,
    DashboardKeysController,
    DashboardFilesController,
    DashboardTryController,
    DashboardAccountController,
    // Last: any other /dashboard path is the dashboard's 404 page.
    DashboardFallbackController,
  ],
  providers: [
    {
      provide: SignInThrottle,
      useFactory: (redis: Redis, clock: Clock, config: GatewayConfig) =>
        SignInThrottle.over(redis, config.queue.prefix, () => clock.now().getTime()),
      inject: [Redis, Clock, GATEWAY_CONFIG],
    },
    {
      // Signed with a key derived from the gateway's one secret (no setting of its own).
      provide: DeviceCookies,
      useFactory: (clock: Clock, config: GatewayConfig) =>
        DeviceCookies.fromSecret(config.payloadEncryptionKey, () => clock.now().getTime()),
      inject: [Clock, GATEWAY_CONFIG],
    },
    DashboardAuth,
    DashboardSessionMiddleware,
  ],
  exports: [DashboardSessionMiddleware],
})
export class DashboardModule {}
