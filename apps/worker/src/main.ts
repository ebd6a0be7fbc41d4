import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createRootLogger, exitOnBootFailure, PinoNestLogger } from '@ppfile/infra';
import { loadWorkerConfig } from './config';
import { WorkerModule } from './worker.module';

/** A Nest application context (no HTTP API) running the queue's processors until SIGTERM. */
async function bootstrap(): Promise<void> {
  const config = loadWorkerConfig();
  const logger = createRootLogger({ app: 'worker', level: config.logLevel });
  // Nest logs through pino from its first line; a failure while building the module graph is thrown
  // to the catch below (abortOnError: false), which writes it as one JSON line.
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, logger), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  app.enableShutdownHooks();
  new Logger('worker').log(`ppfile worker started, queues ${config.queues.join(', ')}`);
}

bootstrap().catch((e: Error) => exitOnBootFailure('worker', 'WORKER_HTTP_PORT', e));
