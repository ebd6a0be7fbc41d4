import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { PrismaClient } from '@ppfile/db';
import { JobQueue } from './job-queue';
import { PRISMA, REDIS } from './tokens';

/** Closes the process-wide clients on shutdown (SIGTERM drains, then exits). */
@Injectable()
export class Resources implements OnApplicationShutdown {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(JobQueue) private readonly queue: JobQueue,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await Promise.allSettled([this.prisma.$disconnect(), this.redis.quit()]);
  }
}
