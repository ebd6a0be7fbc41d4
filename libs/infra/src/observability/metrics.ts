import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { FILE_STATUSES } from '@ppfile/contract';
import type { CommittedUnits } from '@ppfile/db';
import type { Readiness } from '../health';

export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
/** The states of a file (libs/contract FILE_STATUSES), one series each. */
export const FILE_STATES = FILE_STATUSES;
export type JobOutcome = 'completed' | 'failed' | 'retried';

export type QueueState = (typeof QUEUE_STATES)[number];
export type QueueCounts = Record<string, Partial<Record<QueueState, number>>>;
export type FileCounts = Partial<Record<string, number>>;
/** What each gauge is read from, as the `source` label of `ppfile_metrics_refreshed_timestamp_seconds`. */
export const GAUGE_SOURCES = ['queues', 'files', 'dependencies'] as const;
export type GaugeSource = (typeof GAUGE_SOURCES)[number];

const DEPENDENCY_LABEL = { database: 'postgres', redis: 'redis', storage: 's3' } as const;

/**
 * The process's Prometheus metrics (`/metrics`, API.md §13), in a registry of its own (several
 * apps can live in one test process). Counters and histograms are this process's. The gauges that
 * need I/O (queue, files, dependencies) hold the last values a MetricsRefresher read (or, for the
 * dependencies, the last readiness check, whoever asked for it): a scrape copies them and does no
 * I/O (issue 35: a scrape that checked the bucket and counted every file slowed the requests down).
 * They are the same from every process, so a dashboard takes their max, not their sum. A gauge
 * whose source failed keeps its last value, `ppfile_dependency_up` says which source is down, and
 * `ppfile_metrics_refreshed_timestamp_seconds` says when each source was last read.
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
  private readonly queueJobs = new Gauge({
    name: 'ppfile_queue_jobs',
    help: 'Jobs by queue (generate, validate, maintenance) and state, as last read (the same from every process: take the max)',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
  });
  private readonly files = new Gauge({
    name: 'ppfile_files',
    help: 'Generated file records by state, as last read (the same from every process: take the max)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });
  private readonly dependencyUp = new Gauge({
    name: 'ppfile_dependency_up',
    help: 'Whether a dependency answered the last readiness check of this process (1) or not (0)',
    labelNames: ['dependency'] as const,
    registers: [this.registry],
  });
  private readonly refreshed = new Gauge({
    name: 'ppfile_metrics_refreshed_timestamp_seconds',
    help: 'When the last successful read of each source of the gauges began (Unix time): queues, files, dependencies',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  private readonly readAt = new Map<GaugeSource, number>();

  constructor(options: { defaultMetrics?: boolean } = {}) {
    for (const mode of ['live', 'test'] as const) this.unitsCommitted.inc({ mode }, 0);
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
  }

  /** The job counts of the queues, read at `at` (ms since the epoch). */
  queues(byQueue: QueueCounts, at: number): void {
    for (const [queue, counts] of Object.entries(byQueue))
      for (const state of QUEUE_STATES) this.queueJobs.set({ queue, state }, counts[state] ?? 0);
    this.stamp('queues', at);
  }

  /** The file records by state, counted at `at`. */
  fileCounts(counts: FileCounts, at: number): void {
    for (const state of FILE_STATES) this.files.set({ state }, counts[state] ?? 0);
    this.stamp('files', at);
  }

  /** A readiness check begun at `at`: which dependencies answered it. */
  dependencies(r: Readiness, at: number): void {
    // A later check may have ended first (a probe and the refresher at once): the newest stays.
    if ((this.readAt.get('dependencies') ?? -Infinity) > at) return;
    for (const name of Object.keys(DEPENDENCY_LABEL) as (keyof typeof DEPENDENCY_LABEL)[])
      this.dependencyUp.set({ dependency: DEPENDENCY_LABEL[name] }, r.checks[name] === 'up' ? 1 : 0);
    this.stamp('dependencies', at);
  }

  /** When the last successful read of a source began (ms since the epoch), if there was one. */
  lastRead(source: GaugeSource): number | undefined {
    return this.readAt.get(source);
  }

  private stamp(source: GaugeSource, at: number): void {
    this.readAt.set(source, at);
    this.refreshed.set({ source }, at / 1000);
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
