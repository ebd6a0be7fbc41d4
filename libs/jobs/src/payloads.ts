import type { Redis } from 'ioredis';

/**
 * Request bodies and uploaded files on their way from the gateway to a worker: in Redis (which
 * runs without persistence) under a key with a short TTL — never on disk. The worker deletes a
 * payload when its job is finished (not when it first reads it: a worker killed mid-job must leave
 * it for the worker that recovers the job); the TTL removes what a crash leaves behind.
 */
export class PayloadStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds = 3600,
    private readonly prefix = 'ppfile:payload:',
  ) {}

  async put(key: string, content: Buffer | string): Promise<void> {
    await this.redis.set(this.prefix + key, content, 'EX', this.ttlSeconds);
  }

  async get(key: string): Promise<Buffer | null> {
    return this.redis.getBuffer(this.prefix + key);
  }

  async remove(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async exists(key: string): Promise<boolean> {
    return (await this.redis.exists(this.prefix + key)) === 1;
  }
}

export const generatePayloadKey = (fileId: string): string => `generate:${fileId}`;
