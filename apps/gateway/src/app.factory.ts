import type { Server } from 'node:http';
import { Logger, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { DestinationStream } from 'pino';
import { buildOpenApiDocument } from '@ppfile/contract';
import { createRootLogger, HealthChecks, Metrics, PinoNestLogger, type Clock } from '@ppfile/infra';
import { ObjectStorage } from '@ppfile/storage';
import { AppModule } from './app.module';
import { accessLog, expressRoutes, type RouteMatcher } from './common/access-log';
import { requestIdMiddleware, wellFormedPath } from './common/request-id.middleware';
import { securityHeaders } from './common/security-headers';
import type { GatewayConfig } from './config';
import { mountMetrics } from './operators/metrics';
import { OPERATOR_GATE } from './operators/operator-auth';

/** The request line and headers must have arrived within this (slow headers hold a connection, not memory). */
const HEADERS_TIMEOUT_MS = 30_000;

export interface GatewayOverrides {
  /** Tests move time by hand. */
  clock?: Clock;
  /** Where the JSON log lines go (tests collect them); standard output by default. */
  logDestination?: DestinationStream;
}

/** Builds the gateway (used by main.ts and by the e2e tests, which inject a clock). */
export async function createGatewayApp(
  config: GatewayConfig,
  overrides: GatewayOverrides = {},
): Promise<INestApplication> {
  // Body parsing is ours (json-body.middleware): limits and errors in the API's shape.
  const logger = createRootLogger({
    app: 'gateway',
    level: config.logLevel,
    destination: overrides.logDestination,
    // An access line a request: written together (InfoLineBatcher), warnings and errors at once.
    batchInfoLines: true,
  });
  // Nest logs through pino from its first line, and a failure while building the module graph is
  // thrown to main.ts (abortOnError: false), which writes it as one JSON line: never coloured text.
  const app = await NestFactory.create(AppModule.forRoot(config, { clock: overrides.clock, logger }), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const express = app.getHttpAdapter().getInstance() as {
    set(k: string, v: unknown): void;
    disable(k: string): void;
    locals: Record<string, unknown>;
  };
  // Before anything else (Nest's middleware is registered at init, after this): every answer, even
  // an early error or a 404, is logged and measured, and carries the security headers (and, under
  // /v1 and /admin, no-store). Routes are read from Express once it knows them (after init).
  let routes: RouteMatcher[] | null = null;
  app.use(
    accessLog({ logger, metrics: app.get(Metrics), routes: () => (routes ??= expressRoutes(express)) }),
  );
  app.use(securityHeaders());
  // Every answer has its request id, even a refusal before Nest's routing (a broken path).
  app.use(requestIdMiddleware, wellFormedPath);
  app.enableShutdownHooks();
  // Node's own backstops behind the body budget's deadline (body-budget.ts): a request whose headers
  // or body never finish is answered 408 and closed by the server itself (Node's default is 300 s).
  const server = app.getHttpServer() as Server;
  server.requestTimeout = (config.body.timeoutSeconds + 10) * 1000;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, server.requestTimeout);
  express.set('trust proxy', config.trustProxy);
  express.disable('x-powered-by');
  // No automatic ETag on res.send/res.json bodies (express's default is a weak one): it would put an
  // undocumented ETag on error answers and JSON bodies. The API's own ETag (downloads, dashboard
  // assets) is set by hand from the content's hash.
  express.set('etag', false);
  // A request that met a dependency error: the health checks look and log once what is down.
  const health = app.get(HealthChecks);
  express.locals.onDependencyDown = () => health.suspect();
  // The contract (libs/contract openapi.ts), built from the server's own tables, not from decorators.
  const document = buildOpenApiDocument({ serverUrl: config.publicBaseUrl }) as unknown as OpenAPIObject;
  // validatorUrl: null — Swagger UI would otherwise send the document to a third-party validator;
  // persistAuthorization: the key entered in Authorize is sent by every "Try it out".
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    swaggerOptions: { validatorUrl: null, persistAuthorization: true, displayRequestDuration: true },
  });
  mountMetrics(app, app.get(OPERATOR_GATE));
  // Validation needs no object store: the gateway starts while it is down (not ready until it is back).
  await ensureBucket(app.get(ObjectStorage));
  return app;
}

/**
 * Creates the bucket before the gateway serves, when the object store answers within 3 s; otherwise
 * the gateway starts anyway and retries every 5 s in the background (/health/ready tells meanwhile).
 */
async function ensureBucket(storage: ObjectStorage): Promise<void> {
  const logger = new Logger('storage');
  const attempt = (): Promise<boolean> =>
    storage.ensureBucket().then(
      () => true,
      () => false,
    );
  const first = await Promise.race([
    attempt(),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000).unref()),
  ]);
  if (first) return;
  logger.warn('object store unreachable at start; the gateway starts, not ready until it answers');
  const retry = (): void => {
    void attempt().then((ok) =>
      ok ? logger.log('object store reachable; bucket ready') : setTimeout(retry, 5000).unref(),
    );
  };
  setTimeout(retry, 5000).unref();
}
