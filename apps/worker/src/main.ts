import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadWorkerConfig } from './config';
import { WorkerModule } from './worker.module';

/** A Nest application context (no HTTP API) running the queue's processors until SIGTERM. */
async function bootstrap(): Promise<void> {
  const config = loadWorkerConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config));
  app.enableShutdownHooks();
  new Logger('worker').log('ppfile worker started');
}

bootstrap().catch((e: Error) => {
  if (e instanceof ConfigError) console.error(`ppfile worker: ${e.message}`);
  else console.error(`ppfile worker: failed to start: ${e.name}: ${e.message}`);
  process.exit(1);
});
