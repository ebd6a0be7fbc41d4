import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Piscina } from 'piscina';
import { ReferenceDirectory } from '@ppfile/refdata';
import { RequestError } from '@ppfile/rules';
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

/**
 * Declaration bodies larger than this (bytes read, inflated) are parsed and validated in a rules
 * thread; spreadsheets and CSV files larger than this are imported or fixed there.
 */
export const DEFERRED_BODY_BYTES = 256 * 1024;

/**
 * Worker threads for the CPU-heavy rules of large requests (issue "Hostile input": a free
 * 50,000-row validation took the event loop for a third of a second, and every other request
 * waited). Large declaration bodies are parsed and validated in a thread; the event loop only
 * moves bytes. The threads are a piscina pool of a fixed size (RULES_THREADS) running the compiled
 * `rules.worker.js`, one body at a time each, the others waiting in its queue; a thread that dies
 * is replaced by piscina, and its request gets 500. From the TypeScript sources (the test runner)
 * there is no compiled script, and the same function runs inline — the answer is identical.
 */
@Injectable()
export class RulesPool implements OnApplicationShutdown {
  private readonly logger = new Logger('rules-pool');
  private readonly pool: Piscina<RulesTask, TaskOutcome> | null = null;
  private readonly size: number = 0;

  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    const script = this.workerScript();
    const size = config.rulesThreads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    if (size > 0 && existsSync(script)) {
      this.size = size;
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
   * Runs a task (a declaration body given as JSON bytes, a spreadsheet, a CSV) in a thread, or inline
   * when it is small or there are no threads; throws RequestError for a refused request.
   */
  async run<K extends TaskKind>(task: TaskOf<K>): Promise<TaskResponses[K]> {
    const threaded = this.pool && (task.kind === 'validate' || task.body.byteLength > DEFERRED_BODY_BYTES);
    const outcome = threaded
      ? ((await this.inThread(this.pool, task)) as TaskOutcome<K>)
      : runRulesTask<K>(task, this.references);
    if (!outcome.ok) throw RequestError.fromPlain(outcome.refused);
    return outcome.response;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }

  /** The compiled thread script, beside this file once built. */
  protected workerScript(): string {
    return path.join(__dirname, 'rules.worker.js');
  }

  private async inThread(pool: Piscina<RulesTask, TaskOutcome>, task: RulesTask): Promise<TaskOutcome> {
    // The body's bytes move to the thread (transferred, not copied, when they own their memory);
    // the event loop never parses them.
    const bytes = task.body;
    const own =
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength &&
      bytes.buffer instanceof ArrayBuffer;
    try {
      return await pool.run(task, { transferList: own ? [bytes.buffer] : [] });
    } catch (e) {
      // Not `instanceof Error`: the error is rebuilt from the thread's message, in the main realm.
      if (String((e as Error | null)?.message).startsWith(THREAD_FAILED)) throw e;
      // The thread died during this task (piscina has started another).
      this.logger.warn(`rules thread died: ${(e as Error).name}`);
      throw new Error('rules thread died', { cause: e });
    }
  }
}
