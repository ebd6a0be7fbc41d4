import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { FILE_STATUSES } from '@ppfile/contract';
import type { CommittedUnits } from '@ppfile/db';
import type { Readiness } from '../health';

export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
/** The states of a file (libs/contract FILE_STATUSES), one series each. */
export const FILE_STATES = FILE_STATUSES;
export type JobOutcome = 'completed' | 'failed' | 'retried';

/** What the gauges read when Prometheus scrapes: the queue, the files table, the dependencies. */
export interface MetricSources {
  queueCounts(): Promise<Record<string, Partial<Record<(typeof QUEUE_STATES)[number], number>>>>;
  fileCounts(): Promise<Partial<Record<string, number>>>;
  readiness(): Promise<Readiness>;
}

const DEPENDENCY_LABEL = { database: 'postgres', redis: 'redis', storage: 's3' } as const;

/**
 * The process's Prometheus metrics (`/metrics`, API.md §13), in a registry of its own (several
 * apps can live in one test process). Counters and histograms are this process's; the gauges
 * (queue, files, dependencies) are read at scrape time and are the same from every process, so a
 * dashboard takes their max, not their sum. A gauge whose source is down keeps its last value and
 * `ppfile_dependency_up` says which source it is.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'ppfile_http_request_duration_seconds',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
    registers: [this.registry],
  });
  readonly jobs = new Counter({
    name: 'ppfile_jobs_total',
    help: 'Queue jobs run by this worker, by job name and outcome (retried: the attempt failed and will run again)',
    labelNames: ['name', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly jobDuration = new Histogram({
    name: 'ppfile_job_duration_seconds',
    help: 'Duration of queue job attempts, by job name and outcome',
    labelNames: ['name', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly unitsCommitted = new Counter({
    name: 'ppfile_units_committed_total',
    help: 'Units committed by this process (live: against plan quotas; test: rows of test keys)',
    labelNames: ['mode'] as const,
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: 'ppfile_refusals_total',
    help: 'Error answers of the API by error code (rate limit, quota, validation, payload, …)',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  constructor(sources: MetricSources, options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    new Gauge({
      name: 'ppfile_queue_jobs',
      help: 'Jobs by queue (generate, validate, maintenance) and state (the same from every process: take the max)',
      labelNames: ['queue', 'state'] as const,
      registers,
      async collect() {
        const byQueue = await sources.queueCounts().catch(() => null);
        if (!byQueue) return;
        for (const [queue, counts] of Object.entries(byQueue))
          for (const state of QUEUE_STATES) this.set({ queue, state }, counts[state] ?? 0);
      },
    });
    new Gauge({
      name: 'ppfile_files',
      help: 'Generated file records by state (the same from every process: take the max)',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const counts = await sources.fileCounts().catch(() => null);
        if (counts) for (const state of FILE_STATES) this.set({ state }, counts[state] ?? 0);
      },
    });
    new Gauge({
      name: 'ppfile_dependency_up',
      help: 'Whether a dependency answered its readiness check at the last scrape (1) or not (0)',
      labelNames: ['dependency'] as const,
      registers,
      async collect() {
        const r = await sources.readiness();
        for (const [name, state] of Object.entries(r.checks)) {
          this.set(
            { dependency: DEPENDENCY_LABEL[name as keyof typeof DEPENDENCY_LABEL] },
            state === 'up' ? 1 : 0,
          );
        }
      },
    });
    for (const mode of ['live', 'test'] as const) this.unitsCommitted.inc({ mode }, 0);
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /**
   * The gateway's memory budget for request bodies (MAX_INFLIGHT_BYTES): bytes held, bodies held and
   * the budget, read at scrape time. A budget that stays full while requests are few is a leak.
   */
  inflightBodies(read: () => { bytes: number; bodies: number; budget: number }): void {
    const registers = [this.registry];
    new Gauge({
      name: 'ppfile_inflight_body_bytes',
      help: 'Request body bytes this gateway holds (counted before they are read), against MAX_INFLIGHT_BYTES',
      registers,
      collect() {
        this.set(read().bytes);
      },
    });
    new Gauge({
      name: 'ppfile_inflight_bodies',
      help: 'Request bodies this gateway holds now (being received or answered)',
      registers,
      collect() {
        this.set(read().bodies);
      },
    });
    new Gauge({
      name: 'ppfile_inflight_body_budget_bytes',
      help: 'MAX_INFLIGHT_BYTES of this gateway',
      registers,
      collect() {
        this.set(read().budget);
      },
    });
  }

  committed(c: CommittedUnits): void {
    if (c.units > 0) this.unitsCommitted.inc({ mode: c.mode }, c.units);
  }

  /** The exposition text and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
