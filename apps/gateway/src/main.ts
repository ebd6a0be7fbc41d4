import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { exitOnBootFailure } from '@ppfile/infra';
import { createGatewayApp } from './app.factory';
import { loadGatewayConfig } from './config';

async function bootstrap(): Promise<void> {
  const config = loadGatewayConfig();
  const app = await createGatewayApp(config);
  await app.listen(config.port, '0.0.0.0');
  // The port it listens on, and the public URL its answers name (PUBLIC_BASE_URL; a proxy may sit between).
  const address = (app.getHttpServer() as Server).address() as AddressInfo | null;
  new Logger('gateway').log(
    `ppfile gateway listening on port ${address?.port ?? config.port} (public URL ${config.publicBaseUrl}; API /v1, docs /docs)`,
  );
}

bootstrap().catch((e: Error) => exitOnBootFailure('gateway', 'PORT', e));
