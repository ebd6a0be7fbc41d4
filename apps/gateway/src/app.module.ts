import {
  Module,
  RequestMethod,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
} from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import {
  DashboardModule,
  dashboardFormBody,
  dashboardJsonBody,
  DashboardSessionMiddleware,
} from '@ppfile/dashboard';
import { InfraModule, type Clock, type RootLogger } from '@ppfile/infra';
import type { QueueName } from '@ppfile/jobs';
import { ApiKeyMiddleware } from './auth/api-key.middleware';
import { AuthModule } from './auth/auth.module';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { Draining } from './common/draining';
import { BodyBudget } from './common/body-budget';
import { signedInJsonBody } from './common/dashboard-body';
import { jsonBody } from './common/json-body.middleware';
import { dashboardOptionsOf, GATEWAY_CONFIG, servicesOf, type GatewayConfig } from './config';
import { DeclarationsModule } from './declarations/declarations.module';
import { DashboardFileGenerator } from './files/dashboard-file-generator';
import { FilesModule } from './files/files.module';
import { HealthModule } from './health/health.module';
import { bullBoardModules } from './operators/bull-board';
import { OPERATOR_GATE, operatorGateProvider } from './operators/operator-auth';
import { FormatModule } from './format/format.module';
import { DEFERRED_BODY_BYTES } from './uploads/rules-pool';
import { uploadBody } from './uploads/upload-body.middleware';

/** The queues the gateway adds to (generations, uploads to validate, import or fix): the ones it registers. */
const GATEWAY_QUEUES: readonly QueueName[] = ['generate', 'validate'];

export interface AppModuleOptions {
  /** Tests move time by hand; production uses the system clock. */
  clock?: Clock;
  logger: RootLogger;
}

/**
 * The HTTP API (SERVICE.md §4): the shared infrastructure (libs/infra) and one feature module per
 * resource. This module only composes them and orders the middleware every request goes through.
 */
@Module({})
export class AppModule implements NestModule {
  constructor(
    private readonly draining: Draining,
    private readonly bodies: BodyBudget,
  ) {}

  static forRoot(config: GatewayConfig, options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        InfraModule.forRoot({
          services: servicesOf(config),
          databasePoolMax: config.databasePoolMax,
          clock: options.clock,
          logger: options.logger,
          requestIds: 'http',
          queues: GATEWAY_QUEUES,
        }),
        AuthModule,
        HealthModule,
        FormatModule,
        DeclarationsModule,
        FilesModule,
        DashboardModule.forRoot(dashboardOptionsOf(config), {
          imports: [FilesModule],
          fileGenerator: DashboardFileGenerator,
        }),
        ...bullBoardModules(config, GATEWAY_QUEUES),
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        Draining,
        BodyBudget,
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        operatorGateProvider,
      ],
      exports: [GATEWAY_CONFIG, Draining, BodyBudget, OPERATOR_GATE],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(this.draining.middleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
    // Authenticated first (an unknown caller holds no memory), then counted against the body budget.
    consumer
      .apply(ApiKeyMiddleware, this.bodies.middleware)
      .forRoutes({ path: 'v1/*path', method: RequestMethod.ALL });
    // Large declaration bodies (by the bytes read, inflated) are parsed in a rules thread, not here.
    consumer
      .apply(jsonBody({ deferAbove: DEFERRED_BODY_BYTES }))
      .forRoutes({ path: 'v1/declarations/validate', method: RequestMethod.POST });
    consumer.apply(jsonBody()).forRoutes({ path: 'v1/files/generate', method: RequestMethod.POST });
    consumer
      .apply(uploadBody)
      .forRoutes(
        { path: 'v1/files/validate', method: RequestMethod.POST },
        { path: 'v1/files/fix', method: RequestMethod.POST },
        { path: 'v1/declarations/import', method: RequestMethod.POST },
      );
    // The dashboard (API.md §12): its language and session, then its URL-encoded forms and small JSON
    // writes; never an API key.
    consumer
      .apply(DashboardSessionMiddleware, dashboardFormBody, dashboardJsonBody)
      .forRoutes(
        { path: 'dashboard', method: RequestMethod.ALL },
        { path: 'dashboard/*path', method: RequestMethod.ALL },
      );
    // The Build page's Generate (issue 36): the body of POST /v1/files/generate, read as that one is
    // (after the session: a browser not signed in has nothing read; counted against the body budget).
    consumer
      .apply(signedInJsonBody(this.bodies))
      .forRoutes({ path: 'dashboard/build/generate', method: RequestMethod.POST });
  }
}
