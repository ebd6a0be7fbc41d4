import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Piscina } from 'piscina';
import { generateFile, type GenerationOutcome, type GenerationTask } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import { WORKER_CONFIG, type WorkerConfig } from '../config';

/**
 * Where a queued generation's CPU work runs: a piscina pool of as many threads as generations run at
 * once (WORKER_CONCURRENCY_GENERATE). Issue 20: a 20,000-row generation parsed and generated on the
 * worker's event loop held an upload validation of the `validate` queue for its whole duration; in a
 * thread, the two run side by side. From the TypeScript sources (the test runner) there is no
 * compiled thread script, and the same function runs inline — the file is identical.
 */
@Injectable()
export class GenerationPool implements OnApplicationShutdown {
  private readonly pool: Piscina | null;

  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(WORKER_CONFIG) config: WorkerConfig,
  ) {
    const filename = path.join(__dirname, 'generation.thread.js');
    const threads = config.concurrency.generate;
    this.pool = existsSync(filename)
      ? new Piscina({
          filename,
          minThreads: threads,
          maxThreads: threads,
          workerData: { referenceDataDir: config.referenceDataDir },
        })
      : null;
    if (this.pool) {
      const logger = new Logger('worker');
      logger.log(`${threads} generation thread(s)`);
      // A thread that dies between tasks: piscina replaces it; without a listener the event would end the process.
      this.pool.on('error', (e: Error) => logger.warn({ err_name: e?.name }, 'generation thread died'));
    }
  }

  async generate(task: GenerationTask): Promise<GenerationOutcome> {
    if (!this.pool) return generateFile(task, (v) => this.references.lists(v));
    const outcome = (await this.pool.run(task)) as GenerationOutcome;
    // Across the thread boundary a Buffer arrives as a Uint8Array: the file's bytes, as a Buffer again.
    if (outcome.ok) {
      const c = outcome.file.content as Uint8Array;
      outcome.file.content = Buffer.from(c.buffer, c.byteOffset, c.byteLength);
    }
    return outcome;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool?.destroy();
  }
}
