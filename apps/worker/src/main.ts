import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { WorkerModule } from './worker.module';

/** A Nest application context (no HTTP API). It has no processor yet: it starts, and stops on SIGTERM. */
async function bootstrap(): Promise<void> {
  const app = await NestFactory.createApplicationContext(WorkerModule);
  app.enableShutdownHooks();
  new Logger('worker').log('ppfile worker started (no queue processors yet)');
  // Keep the process alive until a signal arrives; enableShutdownHooks closes the context.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => clearInterval(keepAlive));
}

void bootstrap();
