import { Job, Queue, QueueEvents } from 'bullmq';
import {
  bullConnection,
  generatePayloadKey,
  GENERATE_ATTEMPTS,
  PayloadStore,
  QUEUE_NAME,
  type GenerateJobData,
  type GenerationOutcome,
  type ValidateFileJobData,
} from '@ppfile/jobs';
import type { FileValidationResponse } from '@ppfile/rules';

/** The gateway's side of the queue: hands large work to the workers and, unless asked not to, waits for it. */
export class JobQueue {
  private readonly queue: Queue;
  private readonly events: QueueEvents;

  constructor(
    redisUrl: string,
    prefix: string,
    private readonly payloads: PayloadStore,
  ) {
    const connection = bullConnection(redisUrl);
    this.queue = new Queue(QUEUE_NAME, { connection, prefix });
    this.events = new QueueEvents(QUEUE_NAME, { connection, prefix });
    // While Redis is away requests answer 503 (api-exception.filter); the clients reconnect by themselves.
    this.queue.on('error', () => undefined);
    this.events.on('error', () => undefined);
  }

  get bullQueue(): Queue {
    return this.queue;
  }

  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
  }

  /** The job id is the file id: enqueuing twice (a retried request) adds one job. */
  async enqueueGenerate(data: GenerateJobData, body: string): Promise<Job> {
    await this.payloads.put(generatePayloadKey(data.fileId), body);
    return this.queue.add('generate', data, {
      jobId: data.fileId,
      attempts: GENERATE_ATTEMPTS,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 24 * 3600 },
    });
  }

  async waitGenerate(job: Job, timeoutMs: number): Promise<GenerationOutcome> {
    return (await job.waitUntilFinished(this.events, timeoutMs)) as GenerationOutcome;
  }

  /** A large upload: in Redis under a short-lived key (never on disk), validated by a worker. */
  async validateFile(data: ValidateFileJobData, file: Buffer, timeoutMs: number): Promise<FileValidationResponse> {
    await this.payloads.put(data.payloadKey, file);
    try {
      const job = await this.queue.add('validate-file', data, {
        jobId: data.payloadKey.replace(/[:]/g, '-'),
        attempts: 2,
        removeOnComplete: true,
        removeOnFail: { age: 3600 },
      });
      return (await job.waitUntilFinished(this.events, timeoutMs)) as FileValidationResponse;
    } finally {
      await this.payloads.remove(data.payloadKey).catch(() => undefined);
    }
  }

  /**
   * Closes gracefully, or after 3 s by force: after Redis restarted, the blocking connection of
   * QueueEvents may never finish its read, and shutdown must not hang on it.
   */
  async close(): Promise<void> {
    const closing = Promise.allSettled([this.events.close(), this.queue.close()]);
    const late = await Promise.race([closing.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 3000).unref())]);
    // Not awaited: a client still waiting to reconnect disconnects when it can.
    if (late) void Promise.allSettled([this.events.disconnect(), this.queue.disconnect()]);
  }
}
