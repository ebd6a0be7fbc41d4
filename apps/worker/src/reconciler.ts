import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { FileStore, IdempotencyStore, JobPayloadStore } from '@ppfile/db';
import { Clock, HealthChecks, isDependencyDown, JobQueue } from '@ppfile/infra';
import { failUnfinishable, FileLifecycle } from '@ppfile/jobs';
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
 * (conditional), so several workers reconciling at once do each thing once. It runs on a timer of
 * its own, not as a queued job: it is what recovers when Redis has forgotten everything, the
 * queues' schedules included.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('reconciler');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(JobPayloadStore) private readonly payloads: JobPayloadStore,
    @Inject(IdempotencyStore) private readonly claims: IdempotencyStore,
    @Inject(FileLifecycle) private readonly lifecycle: FileLifecycle,
    @Inject(JobQueue) private readonly queue: JobQueue,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(HealthChecks) private readonly health: HealthChecks,
  ) {}

  onApplicationBootstrap(): void {
    // An upgrade from the one queue of earlier versions: its pending generations move to `generate`.
    void this.queue.drainLegacyQueue().then(
      (moved) => moved && this.logger.log(`legacy queue drained: ${moved} generation(s) moved to "generate"`),
      (e: Error) =>
        this.logger.warn({ err_name: e.name }, 'legacy queue not drained (retried at the next start)'),
    );
    const every = this.config.reconcileIntervalSeconds * 1000;
    if (every <= 0) return;
    const tick = () => {
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
          if (this.timer) this.timer = setTimeout(tick, every);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
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
    const leaseMs = this.config.processingLeaseSeconds * 1000;
    if (this.config.sweepIntervalSeconds > 0)
      await this.queue.scheduleSweep(this.config.sweepIntervalSeconds * 1000);

    for (const record of await this.files.listProcessing(BATCH)) {
      const state = await this.queue.generateJobState(record.id);
      if (state === 'active') continue;
      if (now.getTime() - record.progressAt.getTime() < leaseMs) {
        // Within its lease: a live job is left alone; a lost or spent one is re-created if the body
        // is there to resume from (it is in PostgreSQL, not in Redis). A file without a body is an
        // in-process one, still in its gateway's hands until the lease ends.
        if (LIVE_STATES.has(state) || !(await this.payloads.exists(record.id))) continue;
        await this.queue.requeueGenerate(record.id, record.requestId);
        report.requeued++;
        continue;
      }
      // Past its lease and not running: it ends failed, its units released, its object deleted.
      if (await failUnfinishable(this.lifecycle, record)) report.failed++;
    }

    report.released = await this.lifecycle.releaseStaleReservations(new Date(now.getTime() - leaseMs), BATCH);
    report.objects = await this.lifecycle.removeStaleObjects(BATCH);
    report.payloads = await this.lifecycle.removeLeftOverPayloads(BATCH);
    report.claims = await this.claims.purgeStaleClaims(now);
    const acted = Object.entries(report).filter(([, n]) => n > 0);
    if (acted.length) this.logger.log(`reconciled: ${acted.map(([k, n]) => `${k} ${n}`).join(', ')}`);
    return report;
  }
}
