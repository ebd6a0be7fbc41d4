import type { Readiness } from '../health';
import { Metrics, type FileCounts, type QueueCounts } from './metrics';
import { MetricsRefresher, type MetricSources } from './metrics-refresher';

/** `name{labels} value` lines of the exposition, by series. */
async function scrape(metrics: Metrics): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const line of (await metrics.exposition()).text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const ready = (down: Readiness['down'] = []): Readiness => ({
  ready: down.length === 0,
  checks: {
    database: down.includes('database') ? 'down' : 'up',
    redis: down.includes('redis') ? 'down' : 'up',
    storage: down.includes('storage') ? 'down' : 'up',
  },
  down,
});

/** Sources that count their calls; each answer is what the test last set, or a failure. */
class FakeSources implements MetricSources {
  calls = { queueCounts: 0, fileCounts: 0, readiness: 0 };
  queues: QueueCounts | Error = { generate: { waiting: 3, active: 1 } };
  files: FileCounts | Error = { available: 2 };
  health: Readiness = ready();
  /** While set, reads wait for it (a source that does not answer yet). */
  gate: Promise<void> | null = null;

  async queueCounts(): Promise<QueueCounts> {
    this.calls.queueCounts++;
    await this.gate;
    if (this.queues instanceof Error) throw this.queues;
    return this.queues;
  }
  async fileCounts(): Promise<FileCounts> {
    this.calls.fileCounts++;
    await this.gate;
    if (this.files instanceof Error) throw this.files;
    return this.files;
  }
  async readiness(): Promise<Readiness> {
    this.calls.readiness++;
    await this.gate;
    return this.health;
  }
  total(): number {
    return this.calls.queueCounts + this.calls.fileCounts + this.calls.readiness;
  }
}

describe('MetricsRefresher: the gauges that need I/O, read off the scrape', () => {
  let clock: number;
  let metrics: Metrics;
  let sources: FakeSources;
  let refresher: MetricsRefresher;

  beforeEach(() => {
    clock = 1_800_000_000_000;
    metrics = new Metrics({ defaultMetrics: false });
    sources = new FakeSources();
    refresher = new MetricsRefresher(metrics, sources, { periodSeconds: 15, now: () => clock });
  });
  afterEach(() => refresher.stop());

  it('a scrape reads no source: it shows the last values read', async () => {
    await refresher.refresh();
    const before = sources.total();
    expect(before).toBe(3);
    sources.files = { available: 9 };
    for (let i = 0; i < 5; i++) await scrape(metrics);
    expect(sources.total()).toBe(before);
    const m = await scrape(metrics);
    expect(m.get('ppfile_files{state="available"}')).toBe(2);
    expect(m.get('ppfile_files{state="failed"}')).toBe(0);
    expect(m.get('ppfile_queue_jobs{queue="generate",state="waiting"}')).toBe(3);
    expect(m.get('ppfile_queue_jobs{queue="generate",state="delayed"}')).toBe(0);
    expect(m.get('ppfile_dependency_up{dependency="s3"}')).toBe(1);
    for (const source of ['queues', 'files', 'dependencies'])
      expect(m.get(`ppfile_metrics_refreshed_timestamp_seconds{source="${source}"}`)).toBe(clock / 1000);
  });

  it('before the first read, the gauges have no series (not zeros that would look true)', async () => {
    const m = await scrape(metrics);
    expect([...m.keys()].filter((k) => /ppfile_(files|queue_jobs|dependency_up)/.test(k))).toEqual([]);
  });

  it('a refresh updates the values and the time they were read', async () => {
    await refresher.refresh();
    clock += 15_000;
    sources.files = { available: 5, failed: 1 };
    sources.queues = { generate: { waiting: 0 } };
    await refresher.refresh();
    const m = await scrape(metrics);
    expect(m.get('ppfile_files{state="available"}')).toBe(5);
    expect(m.get('ppfile_files{state="failed"}')).toBe(1);
    expect(m.get('ppfile_queue_jobs{queue="generate",state="waiting"}')).toBe(0);
    expect(m.get('ppfile_metrics_refreshed_timestamp_seconds{source="files"}')).toBe(clock / 1000);
  });

  it('a source that fails keeps its gauge at the last value and its time; the dependency gauge says what is down', async () => {
    await refresher.refresh();
    const first = clock / 1000;
    clock += 15_000;
    sources.files = new Error('connection refused');
    sources.health = ready(['database']);
    await refresher.refresh();
    const m = await scrape(metrics);
    expect(m.get('ppfile_files{state="available"}')).toBe(2);
    expect(m.get('ppfile_metrics_refreshed_timestamp_seconds{source="files"}')).toBe(first);
    expect(m.get('ppfile_metrics_refreshed_timestamp_seconds{source="queues"}')).toBe(clock / 1000);
    expect(m.get('ppfile_dependency_up{dependency="postgres"}')).toBe(0);
    expect(m.get('ppfile_dependency_up{dependency="redis"}')).toBe(1);
    expect(m.get('ppfile_dependency_up{dependency="s3"}')).toBe(1);
  });

  it('never reads a source twice at once: a tick while its read hangs waits for that read', async () => {
    let open!: () => void;
    sources.gate = new Promise((resolve) => (open = resolve));
    const first = refresher.refresh();
    clock += 15_000;
    const second = refresher.refresh();
    clock += 15_000;
    const third = refresher.refresh();
    expect(sources.calls).toEqual({ queueCounts: 1, fileCounts: 1, readiness: 1 });
    open();
    await Promise.all([first, second, third]);
    sources.gate = null;
    clock += 15_000;
    await refresher.refresh();
    expect(sources.calls).toEqual({ queueCounts: 2, fileCounts: 2, readiness: 2 });
  });

  it('a source that hangs does not hold the others back', async () => {
    let answer!: (counts: FileCounts) => void;
    sources.fileCounts = () => new Promise<FileCounts>((resolve) => (answer = resolve));
    void refresher.refresh();
    await new Promise((r) => setImmediate(r));
    clock += 15_000;
    sources.queues = { generate: { waiting: 7 } };
    await Promise.race([refresher.refresh(), new Promise((r) => setTimeout(r, 50))]);
    expect((await scrape(metrics)).get('ppfile_queue_jobs{queue="generate",state="waiting"}')).toBe(7);
    expect((await scrape(metrics)).has('ppfile_files{state="available"}')).toBe(false);
    answer({ available: 1 });
  });

  it('derives the dependencies from a recent readiness check (a probe) instead of checking again', async () => {
    metrics.dependencies(ready(['storage']), clock - 1000);
    await refresher.refresh();
    expect(sources.calls.readiness).toBe(0);
    expect((await scrape(metrics)).get('ppfile_dependency_up{dependency="s3"}')).toBe(0);
    clock += 7_500; // half a period since that check: the refresher checks for itself
    await refresher.refresh();
    expect(sources.calls.readiness).toBe(1);
    expect((await scrape(metrics)).get('ppfile_dependency_up{dependency="s3"}')).toBe(1);
  });

  it('keeps the newest check when an older one ends last', async () => {
    metrics.dependencies(ready(), clock);
    metrics.dependencies(ready(['redis']), clock - 500);
    expect((await scrape(metrics)).get('ppfile_dependency_up{dependency="redis"}')).toBe(1);
  });

  describe('on a timer', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask', 'nextTick'] }));
    afterEach(() => jest.useRealTimers());

    const settle = async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
    };

    it('reads at start and every period, and stops reading once stopped (shutdown)', async () => {
      refresher.onApplicationBootstrap();
      await settle();
      expect(sources.calls.fileCounts).toBe(1);
      clock += 15_000;
      jest.advanceTimersByTime(15_000);
      await settle();
      expect(sources.calls.fileCounts).toBe(2);
      await refresher.beforeApplicationShutdown();
      clock += 45_000;
      jest.advanceTimersByTime(45_000);
      await settle();
      expect(sources.calls.fileCounts).toBe(2);
      expect(jest.getTimerCount()).toBe(0);
      // Stopped: an explicit refresh reads nothing either.
      await refresher.refresh();
      expect(sources.calls.fileCounts).toBe(2);
    });

    it('drops what a read under way at shutdown returns', async () => {
      let open!: () => void;
      sources.gate = new Promise((resolve) => (open = resolve));
      sources.files = { available: 4 };
      refresher.start();
      const stopped = refresher.stop();
      open();
      await stopped;
      expect((await scrape(metrics)).has('ppfile_files{state="available"}')).toBe(false);
    });
  });
});
