import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { loadGatewayConfig } from './config';

async function bootstrap(): Promise<void> {
  const config = loadGatewayConfig();
  const app = await NestFactory.create(AppModule);
  app.enableShutdownHooks();
  await app.listen(config.port, '0.0.0.0');
  new Logger('gateway').log(`ppfile gateway listening on ${config.publicBaseUrl} (GET /health)`);
}

void bootstrap();
