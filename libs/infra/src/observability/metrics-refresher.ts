import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { Readiness } from '../health';
import type { FileCounts, GaugeSource, Metrics, QueueCounts } from './metrics';

/** Where the gauges that need I/O are read from: the queues (Redis), the files table, the dependencies. */
export interface MetricSources {
  queueCounts(): Promise<QueueCounts>;
  fileCounts(): Promise<FileCounts>;
  readiness(): Promise<Readiness>;
}

/** How long shutdown waits for the reads under way before the clients are closed under them. */
const STOP_WAIT_MS = 2000;

/**
 * Reads the sources of Metrics' gauges at start and every METRICS_REFRESH_SECONDS, so that a scrape
 * does no I/O (issue 35). Each source is read once at a time: a tick while its read is under way
 * skips it (a PostgreSQL that does not answer leaves one count pending, not one per tick) and the
 * other sources go on. A read that fails changes nothing: its gauges keep their last values and
 * `ppfile_metrics_refreshed_timestamp_seconds` their age, while the readiness check (its own
 * 1.5 s timeout) says which dependency is down. The dependencies are read here only when no
 * readiness check (a probe's, the health watch's) began within the last half period: the probes'
 * checks update the gauge for nothing. So the queue and file gauges are at most one period (plus a
 * read) old, the dependency gauge one and a half. The timer is unref'd and stops before the clients
 * close (beforeApplicationShutdown).
 */
export class MetricsRefresher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly reading = new Map<GaugeSource, Promise<void>>();
  private readonly periodMs: number;
  private readonly now: () => number;

  constructor(
    private readonly metrics: Metrics,
    private readonly sources: MetricSources,
    options: { periodSeconds: number; now?: () => number },
  ) {
    this.periodMs = options.periodSeconds * 1000;
    this.now = options.now ?? Date.now;
  }

  onApplicationBootstrap(): void {
    this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** A first read now, then one every period. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.refresh(), this.periodMs);
    this.timer.unref();
    void this.refresh();
  }

  /** No more reads; waits (a little) for those under way, whose results are dropped. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(this.reading.values()),
      new Promise((resolve) => (timeout = setTimeout(resolve, STOP_WAIT_MS).unref())),
    ]);
    clearTimeout(timeout);
  }

  /**
   * Reads every source whose read is not already under way (that one is awaited instead);
   * resolves when they have all ended.
   */
  async refresh(): Promise<void> {
    if (this.stopped) return;
    const reads = [
      this.read(
        'queues',
        () => this.sources.queueCounts(),
        (v, at) => this.metrics.queues(v, at),
      ),
      this.read(
        'files',
        () => this.sources.fileCounts(),
        (v, at) => this.metrics.fileCounts(v, at),
      ),
    ];
    const checked = this.metrics.lastRead('dependencies');
    if (checked === undefined || this.now() - checked >= this.periodMs / 2)
      reads.push(
        this.read(
          'dependencies',
          () => this.sources.readiness(),
          (r, at) => this.metrics.dependencies(r, at),
        ),
      );
    await Promise.all(reads);
  }

  private read<T>(
    source: GaugeSource,
    fetch: () => Promise<T>,
    apply: (value: T, at: number) => void,
  ): Promise<void> {
    const pending = this.reading.get(source);
    if (pending) return pending;
    const at = this.now();
    const read = fetch()
      .then(
        (value) => {
          if (!this.stopped) apply(value, at);
        },
        // Kept as it was: the readiness check logs the dependency that is down, once.
        () => undefined,
      )
      .finally(() => this.reading.delete(source));
    this.reading.set(source, read);
    return read;
  }
}
