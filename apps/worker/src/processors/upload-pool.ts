import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Piscina } from 'piscina';
import { uploadOutcome, type UploadContext, type UploadTask } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import { unreadable } from '@ppfile/sheets';
import { WORKER_CONFIG, type WorkerConfig } from '../config';
import {
  isUploadStarted,
  UPLOAD_THREAD_FAILED,
  type UploadThreadOutcome,
  type UploadThreadTask,
} from './upload-task';

/**
 * Where a queued import or fix runs (issue 32, finding 3): a piscina pool of up to as many threads as
 * uploads this worker takes at once (WORKER_CONCURRENCY_VALIDATE), so the event loop that renews the
 * jobs' locks and answers the health port only moves bytes. Each task has a time budget
 * (UPLOAD_TIME_BUDGET_SECONDS) from the moment its thread starts it (the thread says so): past it,
 * piscina's abort stops the thread — synchronous code cannot be interrupted any other way — another
 * takes its place, and the upload is refused with UNREADABLE_FILE `too_slow`, a refusal as data like
 * any other. From the TypeScript sources (the test runner) there is no compiled thread script, and
 * the same function runs inline, without a budget.
 */
@Injectable()
export class UploadPool implements OnApplicationShutdown {
  private readonly logger = new Logger('worker');
  private readonly pool: Piscina<UploadThreadTask, UploadThreadOutcome> | null = null;
  private readonly budgetMs: number;
  /** Tasks sent to a thread and not yet answered: each starts its clock when its thread says so. */
  private readonly pending = new Map<string, () => void>();

  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(WORKER_CONFIG) config: WorkerConfig,
  ) {
    this.budgetMs = config.uploadTimeBudgetMs;
    const filename = this.threadScript();
    if (!existsSync(filename)) return;
    const threads = config.concurrency.validate;
    this.pool = new Piscina<UploadThreadTask, UploadThreadOutcome>({
      filename,
      // Started on demand, kept a minute after the last upload: a thread with its modules and
      // reference lists is 30–40 MiB, and most workers see no upload over 2 MiB for hours. Its start
      // is not counted in an upload's budget (the clock starts with the task).
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      workerData: { referenceDataDir: config.referenceDataDir },
      recordTiming: false,
    });
    this.pool.on('message', (message: unknown) => {
      if (isUploadStarted(message)) this.pending.get(message.uploadStarted)?.();
    });
    // A thread that dies between tasks: piscina replaces it; without a listener the event would end the process.
    this.pool.on('error', (e: Error) => this.logger.warn({ err_name: e?.name }, 'upload thread died'));
    this.logger.log(`up to ${threads} upload thread(s), ${this.budgetMs / 1000} s each upload`);
  }

  /** Threads running (0: inline). */
  get threads(): number {
    return this.pool?.options.maxThreads ?? 0;
  }

  /** Imports or fixes the bytes: the answer, or the refusal as data (too_slow past the budget). */
  async run(task: UploadTask, bytes: Buffer, ctx: UploadContext): Promise<UploadThreadOutcome> {
    if (!this.pool) return uploadOutcome(task, bytes, ctx, this.references);
    const token = randomUUID();
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    this.pending.set(token, () => {
      timer = setTimeout(() => abort.abort(), this.budgetMs);
    });
    // The bytes move to the thread (transferred, not copied, when they own their memory).
    const own =
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength &&
      bytes.buffer instanceof ArrayBuffer;
    try {
      return await this.pool.run(
        { token, task, bytes, ctx },
        { signal: abort.signal, transferList: own ? [bytes.buffer] : [] },
      );
    } catch (e) {
      if (abort.signal.aborted) {
        this.logger.warn(
          { kind: task.kind, budget_ms: this.budgetMs },
          'upload stopped past its time budget',
        );
        return { ok: false, refused: unreadable('too_slow', ctx.lang).toPlain() };
      }
      // Not `instanceof Error`: the error is rebuilt from the thread's message, in the main realm.
      if (String((e as Error | null)?.message).startsWith(UPLOAD_THREAD_FAILED)) throw e;
      // The thread died during this task (piscina has started another).
      throw new Error('upload thread died', { cause: e });
    } finally {
      clearTimeout(timer);
      this.pending.delete(token);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }

  /** The compiled thread script, beside this file once built. */
  protected threadScript(): string {
    return path.join(__dirname, 'upload.thread.js');
  }
}
