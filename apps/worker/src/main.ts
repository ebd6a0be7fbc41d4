import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createRootLogger, framesOf, PinoNestLogger } from '@ppfile/infra';
import { ConfigError, loadWorkerConfig } from './config';
import { WorkerModule } from './worker.module';

/** A Nest application context (no HTTP API) running the queue's processors until SIGTERM. */
async function bootstrap(): Promise<void> {
  const config = loadWorkerConfig();
  const logger = createRootLogger({ app: 'worker', level: config.logLevel });
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, logger), {
    bufferLogs: true,
  });
  app.useLogger(new PinoNestLogger(logger));
  app.enableShutdownHooks();
  new Logger('worker').log('ppfile worker started');
}

bootstrap().catch((e: Error) => {
  // One JSON line naming the problem (every configuration problem at once), never a value.
  const logger = createRootLogger({ app: 'worker', level: 'info' });
  if (e instanceof ConfigError) logger.fatal({ type: 'config' }, `ppfile worker: ${e.message}`);
  else
    logger.fatal(
      { err_name: e.name, frames: framesOf(e.stack ?? '') },
      `ppfile worker: failed to start: ${e.name}`,
    );
  process.exit(1);
});
