import { DiscoveryService } from '@nestjs/core';
import type { JobName } from '@ppfile/jobs';

/**
 * Marks the method that runs one job name of libs/jobs QUEUES: `@OnJob('generate')`. Any provider
 * of the worker may hold such methods; JobHandlers finds them at boot (Nest's discovery) and the
 * worker refuses to start when a job name has none, or two. The method gets the BullMQ job and runs
 * in the context of the request that added it (its id on every line).
 */
export const OnJob = DiscoveryService.createDecorator<JobName>();

/**
 * Marks the cleanup of a job that has failed for good (attempts spent, or stalled too often):
 * `@OnJobFailed('generate')`, called with the job and its last error. Optional, at most one per job.
 */
export const OnJobFailed = DiscoveryService.createDecorator<JobName>();
