import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ReferenceDirectory } from '@ppfile/refdata';
import { RequestError, type DeclarationValidationResponse } from '@ppfile/rules';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { runValidateTask, type TaskOutcome, type ValidateTask } from './rules-task';

/** Declaration bodies larger than this (bytes read, inflated) are parsed and validated in a rules thread. */
export const DEFERRED_BODY_BYTES = 256 * 1024;

interface Pending {
  id: number;
  task: ValidateTask;
  resolve: (outcome: TaskOutcome) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

/**
 * Worker threads for the CPU-heavy rules of large requests (issue "Hostile input": a free
 * 50,000-row validation took the event loop for a third of a second, and every other request
 * waited). Large declaration bodies are parsed and validated in a thread; the event loop only
 * moves bytes. The threads run the compiled `rules.worker.js`: from the TypeScript sources (the
 * test runner) there is none, and the same function runs inline — the answer is identical.
 */
@Injectable()
export class RulesPool implements OnApplicationShutdown {
  private readonly logger = new Logger('rules-pool');
  private readonly slots: Slot[] = [];
  private readonly waiting: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    const script = path.join(__dirname, 'rules.worker.js');
    const size = config.rulesThreads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    if (size > 0 && existsSync(script)) {
      for (let i = 0; i < size; i++) this.slots.push(this.spawn(script));
      this.logger.log(`${size} rules thread(s) for large declaration bodies`);
    }
  }

  /** Threads running (0: inline). */
  get threads(): number {
    return this.slots.length;
  }

  /** Validates a declaration body given as JSON bytes; throws RequestError for a refused request. */
  async validate(task: ValidateTask): Promise<DeclarationValidationResponse> {
    const outcome =
      this.slots.length === 0 ? runValidateTask(task, this.references) : await this.submit(task);
    if (!outcome.ok)
      throw new RequestError(outcome.refused.code, outcome.refused.message, outcome.refused.details);
    return outcome.response;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.slots.map((s) => s.worker.terminate()));
  }

  private submit(task: ValidateTask): Promise<TaskOutcome> {
    return new Promise<TaskOutcome>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, task, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy || this.waiting.length === 0) continue;
      const job = this.waiting.shift()!;
      slot.busy = job;
      // The body's bytes move to the thread (transferred, not copied, when they own their memory);
      // the event loop never parses them.
      const bytes = job.task.body;
      const own =
        bytes.byteOffset === 0 &&
        bytes.byteLength === bytes.buffer.byteLength &&
        bytes.buffer instanceof ArrayBuffer;
      slot.worker.postMessage({ id: job.id, task: job.task }, own ? [bytes.buffer] : []);
    }
  }

  private spawn(script: string): Slot {
    const slot: Slot = {
      worker: new Worker(script, { workerData: { referenceDataDir: this.config.referenceDataDir } }),
      busy: null,
    };
    slot.worker.on('message', (message: { id: number; outcome?: TaskOutcome; failure?: string }) => {
      const job = slot.busy;
      slot.busy = null;
      if (job && job.id === message.id) {
        if (message.outcome) job.resolve(message.outcome);
        else job.reject(new Error(`rules thread failed: ${message.failure ?? 'Error'}`));
      }
      this.dispatch();
    });
    slot.worker.on('error', (e) => {
      this.logger.warn(`rules thread died: ${e.name}`);
      slot.busy?.reject(new Error('rules thread died'));
      slot.busy = null;
    });
    slot.worker.on('exit', () => {
      if (this.closed) return;
      // A thread that died is replaced; its request got 500 (rejected above).
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots[index] = this.spawn(script);
      this.dispatch();
    });
    slot.worker.unref();
    return slot;
  }
}
