import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { FileStore, IdempotencyStore } from '@ppfile/db';
import { Clock, HealthChecks, JobQueue } from '@ppfile/infra';
import { failUnfinishable, FileLifecycle, isDependencyDown } from '@ppfile/jobs';
import { WORKER_CONFIG, type WorkerConfig } from './config';

export interface ReconcileReport {
  requeued: number;
  failed: number;
  released: number;
  claims: number;
  objects: number;
  payloads: number;
}

const BATCH = 500;
/** A job that is waiting, running or retrying is the file's progress: the reconciler leaves it. */
const LIVE_STATES = new Set(['active', 'waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Keeps accepted work moving whatever Redis forgot (API.md §8): at start and every
 * RECONCILE_INTERVAL_SECONDS it re-creates the job of a processing file whose job vanished or gave
 * up while its lease runs, ends `failed` (units released, object deleted) a file past its lease
 * that is not running, re-creates the sweep's schedule, releases reservations whose work is gone,
 * deletes objects and payloads left by finished files, and clears idempotency claims of dead
 * requests. Every change to a file, its units or its payload is a move of libs/jobs FileLifecycle
 * (conditional), so several workers reconciling at once do each thing once. It runs on an
 * interval of each worker (@nestjs/schedule), not as a queued job: it is what recovers when Redis
 * has forgotten everything, the queues' schedules included. A run never overlaps the previous one
 * (a tick while one runs is skipped), and shutdown stops the interval and waits for the run under way.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  static readonly INTERVAL = 'reconcile';
  private readonly logger = new Logger('reconciler');
  private running: Promise<unknown> | null = null;

  constructor(
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(IdempotencyStore) private readonly claims: IdempotencyStore,
    @Inject(FileLifecycle) private readonly lifecycle: FileLifecycle,
    @Inject(JobQueue) private readonly queue: JobQueue,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(HealthChecks) private readonly health: HealthChecks,
    @Inject(SchedulerRegistry) private readonly scheduler: SchedulerRegistry,
  ) {}

  /** At start, then every RECONCILE_INTERVAL_SECONDS (0: never). */
  onApplicationBootstrap(): void {
    const every = this.config.reconcileIntervalSeconds * 1000;
    if (every <= 0) return;
    this.scheduler.addInterval(
      Reconciler.INTERVAL,
      setInterval(() => this.tick(), every),
    );
    this.tick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.scheduler.doesExist('interval', Reconciler.INTERVAL))
      this.scheduler.deleteInterval(Reconciler.INTERVAL);
    await this.running;
  }

  /** One run, unless the previous one is still going. */
  private tick(): void {
    if (this.running) return;
    this.running = this.reconcile()
      .catch((e: Error) => {
        // A dependency down is logged once by the health checks, not at every interval.
        if (isDependencyDown(e)) this.health.suspect();
        else
          this.logger.warn(
            { err_name: e.name, err_code: (e as NodeJS.ErrnoException).code },
            'reconciliation interrupted',
          );
      })
      .finally(() => {
        this.running = null;
      });
  }

  async reconcile(): Promise<ReconcileReport> {
    const report: ReconcileReport = {
      requeued: 0,
      failed: 0,
      released: 0,
      claims: 0,
      objects: 0,
      payloads: 0,
    };
    const now = this.clock.now();
    const lease = this.config.processingLeaseSeconds;
    if (this.config.sweepIntervalSeconds > 0)
      await this.queue.scheduleSweep(this.config.sweepIntervalSeconds * 1000);

    for (const record of await this.files.listProcessing(BATCH)) {
      const state = await this.queue.generateJobState(record.id);
      if (state === 'active') continue;
      if (!FileLifecycle.outlivedLease(record, now, lease)) {
        // Within its lease: a live job is left alone; a lost or spent one is re-created if the body
        // is there to resume from (in the object store, not in Redis). A file without a body is an
        // in-process one, still in its gateway's hands until the lease ends.
        if (LIVE_STATES.has(state) || !(await this.lifecycle.hasBody(record))) continue;
        await this.queue.requeueGenerate(record.id, record.requestId);
        report.requeued++;
        continue;
      }
      // Past its lease and not running: it ends failed, its units released, its object deleted.
      if (await failUnfinishable(this.lifecycle, record)) report.failed++;
    }

    report.released = await this.lifecycle.releaseStaleReservations(
      new Date(now.getTime() - lease * 1000),
      BATCH,
    );
    report.objects = await this.lifecycle.removeStaleObjects(BATCH);
    report.payloads = await this.lifecycle.removeLeftOverPayloads(
      BATCH,
      new Date(now.getTime() - lease * 1000),
    );
    report.claims = await this.claims.purgeStaleClaims(now);
    const acted = Object.entries(report).filter(([, n]) => n > 0);
    if (acted.length) this.logger.log(`reconciled: ${acted.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    return report;
  }
}
