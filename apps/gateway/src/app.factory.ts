import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppModule, type GatewayOverrides } from './app.module';
import type { GatewayConfig } from './config';
import { securityHeaders } from './common/security-headers';
import { mountBullBoard } from './operators/bull-board';
import { ObjectStorage } from '@ppfile/storage';

/** Builds the gateway (used by main.ts and by the e2e tests, which inject a clock). */
export async function createGatewayApp(config: GatewayConfig, overrides: GatewayOverrides = {}): Promise<INestApplication> {
  // Body parsing is ours (json-body.middleware): limits and errors in the API's shape.
  const app = await NestFactory.create(AppModule.forRoot(config, overrides), { bodyParser: false, bufferLogs: true });
  // Before anything else (Nest's middleware is registered at init, after this): every answer, even
  // an early error or a 404, carries the security headers (and, under /v1 and /admin, no-store).
  app.use(securityHeaders());
  app.enableShutdownHooks();
  const express = app.getHttpAdapter().getInstance() as { set(k: string, v: unknown): void; disable(k: string): void };
  express.set('trust proxy', 'loopback');
  express.disable('x-powered-by');
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('ppfile')
      .setDescription(
        'Generates and validates CSV files in the official bulk-import format of the Passeport de Prévention portal. ' +
          'Nothing is ever submitted to the portal.',
      )
      .setVersion('v1')
      .addBearerAuth()
      .build(),
  );
  // validatorUrl: null — Swagger UI would otherwise send the document to a third-party validator.
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', swaggerOptions: { validatorUrl: null } });
  mountBullBoard(app, config);
  await app.get(ObjectStorage).ensureBucket();
  return app;
}
