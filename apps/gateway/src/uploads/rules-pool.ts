import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Piscina } from 'piscina';
import { ReferenceDirectory } from '@ppfile/refdata';
import { RequestError } from '@ppfile/rules';
import { unreadable } from '@ppfile/sheets';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import {
  runRulesTask,
  THREAD_FAILED,
  type RulesTask,
  type TaskKind,
  type TaskOf,
  type TaskOutcome,
  type TaskResponses,
} from './rules-task';

/** Declaration bodies larger than this (bytes read, inflated) are parsed and validated in a rules thread. */
export const DEFERRED_BODY_BYTES = 256 * 1024;

/**
 * The threads, shared fairly: at most `slots` tasks run at once (one a thread), an owner (an
 * organization) holds at most `share` of them, and a freed thread goes to the earliest task whose
 * owner is under its share — so one organization's uploads wait for each other, never all of
 * another's (issue 32: one workbook held the only thread 136 s while another organization's
 * validation waited). Tasks enter piscina only when a thread is free: piscina never queues, and a
 * task's time budget runs from its start.
 */
export class FairSlots {
  private busy = 0;
  private readonly held = new Map<string, number>();
  private readonly waiting: { owner: string; start: () => void }[] = [];

  constructor(
    private readonly slots: number,
    private readonly share: number,
  ) {}

  acquire(owner: string): Promise<void> {
    return new Promise((start) => {
      this.waiting.push({ owner, start });
      this.pump();
    });
  }

  release(owner: string): void {
    this.busy--;
    const n = (this.held.get(owner) ?? 1) - 1;
    if (n > 0) this.held.set(owner, n);
    else this.held.delete(owner);
    this.pump();
  }

  private pump(): void {
    while (this.busy < this.slots) {
      const i = this.waiting.findIndex((w) => (this.held.get(w.owner) ?? 0) < this.share);
      if (i < 0) return;
      const [next] = this.waiting.splice(i, 1);
      this.busy++;
      this.held.set(next!.owner, (this.held.get(next!.owner) ?? 0) + 1);
      next!.start();
    }
  }
}

/**
 * Worker threads for the CPU-heavy rules of requests (issue "Hostile input": a free 50,000-row
 * validation took the event loop for a third of a second, and every other request waited; issue
 * 32: a 3 KB workbook took it for minutes). Large declaration bodies are parsed and validated in a
 * thread, and every spreadsheet import and CSV fix runs in one, whatever its size (a few KB of zip
 * may expand to 200 MB); the event loop only moves bytes. The threads are a piscina pool of a fixed
 * size (RULES_THREADS) running the compiled `rules.worker.js`, shared fairly between organizations
 * (FairSlots); an import or fix that runs past its time budget (RULES_TIME_BUDGET_SECONDS) has its
 * thread stopped (piscina terminates it and starts another) and answers 400 UNREADABLE_FILE
 * `too_slow`. A thread that dies is replaced by piscina, and its request gets 500. From the
 * TypeScript sources (the test runner) there is no compiled script, and the same function runs
 * inline — the answer is identical.
 */
@Injectable()
export class RulesPool implements OnApplicationShutdown {
  private readonly logger = new Logger('rules-pool');
  private readonly pool: Piscina<RulesTask, TaskOutcome> | null = null;
  private readonly size: number = 0;
  private readonly slots: FairSlots | null = null;
  private readonly budgetMs: number;

  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    const script = this.workerScript();
    // Two at least: one organization may hold only share = threads − 1 of them.
    const size = config.rulesThreads ?? Math.max(2, Math.min(4, availableParallelism() - 1));
    this.budgetMs = (config.rulesTimeBudgetSeconds ?? 10) * 1000;
    if (size > 0 && existsSync(script)) {
      this.size = size;
      this.slots = new FairSlots(size, Math.max(1, size - 1));
      this.pool = new Piscina<RulesTask, TaskOutcome>({
        filename: script,
        minThreads: size,
        maxThreads: size,
        concurrentTasksPerWorker: 1,
        workerData: { referenceDataDir: config.referenceDataDir },
        recordTiming: false,
      });
      // A thread that dies between two tasks (piscina replaces it): no request to answer, a line to log.
      this.pool.on('error', (e: Error) => this.logger.warn(`rules thread died: ${e.name}`));
      this.logger.log(`${size} rules thread(s) for large declaration bodies`);
    }
  }

  /** Threads running (0: inline). */
  get threads(): number {
    return this.size;
  }

  /**
   * Runs a task (a declaration body given as JSON bytes, a spreadsheet, a CSV) in a thread for
   * `owner` (an organization's id), or inline when there are no threads; throws RequestError for a
   * refused request.
   */
  async run<K extends TaskKind>(task: TaskOf<K>, owner: string): Promise<TaskResponses[K]> {
    const outcome =
      this.pool && this.slots
        ? ((await this.inFairThread(this.pool, this.slots, task, owner)) as TaskOutcome<K>)
        : runRulesTask<K>(task, this.references);
    if (!outcome.ok) throw RequestError.fromPlain(outcome.refused);
    return outcome.response;
  }

  private async inFairThread(
    pool: Piscina<RulesTask, TaskOutcome>,
    slots: FairSlots,
    task: RulesTask,
    owner: string,
  ): Promise<TaskOutcome> {
    await slots.acquire(owner);
    try {
      // A declaration body is linear in its (bounded) size; an upload's work is what it expands to.
      const budget = task.kind === 'validate' ? undefined : AbortSignal.timeout(this.budgetMs);
      return await this.inThread(pool, task, budget);
    } finally {
      slots.release(owner);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }

  /** The compiled thread script, beside this file once built. */
  protected workerScript(): string {
    return path.join(__dirname, 'rules.worker.js');
  }

  private async inThread(
    pool: Piscina<RulesTask, TaskOutcome>,
    task: RulesTask,
    budget?: AbortSignal,
  ): Promise<TaskOutcome> {
    // The body's bytes move to the thread (transferred, not copied, when they own their memory);
    // the event loop never parses them.
    const bytes = task.body;
    const own =
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength &&
      bytes.buffer instanceof ArrayBuffer;
    try {
      return await pool.run(task, { transferList: own ? [bytes.buffer] : [], signal: budget });
    } catch (e) {
      if (budget?.aborted) {
        // Its thread is stopped (piscina terminates it and starts another): the request is refused.
        this.logger.warn(
          `rules thread stopped: a ${task.kind} ran past its ${this.budgetMs / 1000} s budget`,
        );
        return { ok: false, refused: unreadable('too_slow', task.lang).toPlain() };
      }
      // Not `instanceof Error`: the error is rebuilt from the thread's message, in the main realm.
      if (String((e as Error | null)?.message).startsWith(THREAD_FAILED)) throw e;
      // The thread died during this task (piscina has started another).
      this.logger.warn(`rules thread died: ${(e as Error).name}`);
      throw new Error('rules thread died', { cause: e });
    }
  }
}
