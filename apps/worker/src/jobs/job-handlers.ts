import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { Job } from 'bullmq';
import { JOB_NAMES, queueOf, type JobName, type QueueName } from '@ppfile/jobs';
import { OnJob, OnJobFailed } from './on-job';

/** What the worker runs for one job name: its @OnJob method, and its @OnJobFailed cleanup if any. */
export interface JobHandler {
  readonly name: JobName;
  readonly queue: QueueName;
  /** `Class.method`, for the boot line and the errors. */
  readonly where: string;
  readonly run: (job: Job) => Promise<unknown>;
  readonly failedForGood?: (job: Job, error: Error) => Promise<void>;
}

/** A job name of libs/jobs QUEUES without its @OnJob method, or with two: the worker does not start. */
export class JobHandlerError extends Error {
  override readonly name = 'JobHandlerError';
}

/**
 * The handlers of every job name, found at boot among the worker's providers by their @OnJob and
 * @OnJobFailed methods (Nest's DiscoveryService and MetadataScanner) and checked against libs/jobs
 * QUEUES, the one list of job names: a job name without a handler, or with two, stops the worker
 * before it takes any job (issue 34). A queue's worker (QueueWorkers) runs a job through `handlerOf`.
 */
@Injectable()
export class JobHandlers implements OnModuleInit {
  private table: ReadonlyMap<JobName, JobHandler> | null = null;

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
  ) {}

  onModuleInit(): void {
    this.table = this.discover();
  }

  /** Every handler, in the order of libs/jobs JOB_NAMES. */
  all(): JobHandler[] {
    return [...this.handlers().values()];
  }

  /** The handler of a job taken from `queue`; a name unknown there fails the job, not the worker. */
  handlerOf(queue: QueueName, name: string): JobHandler {
    const handler = this.handlers().get(name as JobName);
    if (!handler || handler.queue !== queue)
      throw new Error(`no handler for job "${name}" on queue "${queue}" (added by another version?)`);
    return handler;
  }

  private handlers(): ReadonlyMap<JobName, JobHandler> {
    return (this.table ??= this.discover());
  }

  private discover(): ReadonlyMap<JobName, JobHandler> {
    const runs = new Map<JobName, { where: string; run: (job: Job) => Promise<unknown> }[]>();
    const cleanups = new Map<JobName, { where: string; run: (job: Job, e: Error) => Promise<void> }[]>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      for (const key of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
        const method = instance[key];
        if (typeof method !== 'function') continue;
        const where = `${instance.constructor.name}.${key}`;
        const bound = method.bind(instance) as never;
        const name = this.discovery.getMetadataByDecorator(OnJob, wrapper, key);
        if (typeof name === 'string') push(runs, name, { where, run: bound });
        const failed = this.discovery.getMetadataByDecorator(OnJobFailed, wrapper, key);
        if (typeof failed === 'string') push(cleanups, failed, { where, run: bound });
      }
    }
    return handlerTable(runs, cleanups);
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  map.set(key, [...(map.get(key) ?? []), value]);
}

/** One handler per job name of QUEUES, each with at most one cleanup; else a JobHandlerError naming them all. */
function handlerTable(
  runs: Map<JobName, { where: string; run: (job: Job) => Promise<unknown> }[]>,
  cleanups: Map<JobName, { where: string; run: (job: Job, e: Error) => Promise<void> }[]>,
): ReadonlyMap<JobName, JobHandler> {
  const problems: string[] = [];
  const unknown = [...runs.keys(), ...cleanups.keys()].filter((n) => !JOB_NAMES.includes(n));
  for (const name of new Set(unknown)) problems.push(`"${name}" is not a job name of libs/jobs QUEUES`);
  const missing = JOB_NAMES.filter((n) => !runs.has(n));
  if (missing.length)
    problems.push(
      `no handler for job ${missing.map((n) => `"${n}" (queue "${queueOf(n)}")`).join(', ')}: ` +
        `decorate the method that runs it with @OnJob('${missing[0]}')`,
    );
  for (const [name, found] of [...runs, ...cleanups])
    if (found.length > 1)
      problems.push(`job "${name}" has ${found.length}: ${found.map((f) => f.where).join(', ')}`);
  if (problems.length) throw new JobHandlerError(`the worker cannot start: ${problems.join('; ')}`);
  return new Map(
    JOB_NAMES.map((name) => {
      const { where, run } = runs.get(name)![0]!;
      const cleanup = cleanups.get(name)?.[0];
      return [name, { name, queue: queueOf(name), where, run, failedForGood: cleanup?.run }] as const;
    }),
  );
}
