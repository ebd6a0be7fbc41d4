import { Module, type DynamicModule, type ModuleMetadata, type Type } from '@nestjs/common';
import { Redis } from 'ioredis';
import { Clock, RateLimiter } from '@ppfile/infra';
import { ReferenceDirectory } from '@ppfile/refdata';
import { WebAssets } from './assets/web-assets';
import { DashboardBuildApiController, DashboardBuildPageController } from './build.controller';
import { FILE_GENERATOR, type FileGenerator } from './file-generator';
import { DashboardAccountController } from './account.controller';
import { DashboardAuthController } from './auth.controller';
import { DashboardAuth } from './dashboard-auth';
import { DASHBOARD_OPTIONS, type DashboardOptions } from './dashboard-options';
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
 * PostgreSQL), API keys, usage, files and their downloads, Try it (a CSV checked in memory with
 * a test key's limits), and the Build page (a spreadsheet checked in the browser, then generated
 * through the application's generate use-case, the FileGenerator port). docs/dashboard.md describes it for its users; html.ts says why the pages
 * are tagged templates rather than a template engine.
 *
 * A library of its own (layer 5, above libs/infra), mounted by the gateway with
 * `DashboardModule.forRoot(options, ports)`: the options are the few settings it reads (DashboardOptions),
 * the ports what it asks the application to do (DashboardPorts);
 * the stores, Redis and the clock are libs/infra's (InfraModule, global). The mounting module
 * applies DashboardSessionMiddleware (and the form body parser, dashboardFormBody) to /dashboard in
 * order after the request id; the controllers' own filter answers every failure as a page.
 */
/** What the mounting application provides the dashboard with (its ports), and the modules they come from. */
export interface DashboardPorts {
  /** The modules that provide the ports' classes (exported by them). */
  imports: NonNullable<ModuleMetadata['imports']>;
  /** The Build page's Generate: the application's one generate use-case (file-generator.ts). */
  fileGenerator: Type<FileGenerator>;
}

@Module({})
export class DashboardModule {
  static forRoot(options: DashboardOptions, ports: DashboardPorts): DynamicModule {
    return {
      module: DashboardModule,
      imports: ports.imports,
      controllers: [
        DashboardStaticController,
        DashboardAuthController,
        DashboardUsageController,
        DashboardKeysController,
        DashboardFilesController,
        DashboardTryController,
        DashboardBuildPageController,
        DashboardBuildApiController,
        DashboardAccountController,
        // Last: any other /dashboard path is the dashboard's 404 page.
        DashboardFallbackController,
      ],
      providers: [
        { provide: DASHBOARD_OPTIONS, useValue: options },
        {
          // Try it's per-minute limit: the API's limiter, under the API's keys (`<QUEUE_PREFIX>:rl:`).
          provide: RateLimiter,
          useFactory: (redis: Redis, clock: Clock) =>
            new RateLimiter(redis, () => clock.now().getTime(), `${options.keyPrefix}:rl`),
          inject: [Redis, Clock],
        },
        {
          provide: SignInThrottle,
          useFactory: (redis: Redis, clock: Clock) =>
            SignInThrottle.over(redis, options.keyPrefix, () => clock.now().getTime()),
          inject: [Redis, Clock],
        },
        {
          // Signed with a key derived from the application's one secret (no setting of its own).
          provide: DeviceCookies,
          useFactory: (clock: Clock) => DeviceCookies.fromSecret(options.secret, () => clock.now().getTime()),
          inject: [Clock],
        },
        {
          // The front end's bundle (dist/dashboard-web) and the reference lists, read at boot.
          provide: WebAssets,
          useFactory: (references: ReferenceDirectory) => WebAssets.load(references),
          inject: [ReferenceDirectory],
        },
        { provide: FILE_GENERATOR, useExisting: ports.fileGenerator },
        DashboardAuth,
        DashboardSessionMiddleware,
      ],
      // The mounting module applies the middleware, so it resolves the middleware's options too.
      exports: [DashboardSessionMiddleware, DASHBOARD_OPTIONS],
    };
  }
}
