import { Injectable, type Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import type { Job } from 'bullmq';
import { JOB_NAMES, queueOf } from '@ppfile/jobs';
import { GenerateProcessor } from '../processors/generate.processor';
import { SweepProcessor } from '../processors/sweep.processor';
import { ValidateFileProcessor } from '../processors/validate-file.processor';
import { JOB_PROVIDERS } from '../worker.module';
import { JobHandlerError, JobHandlers } from './job-handlers';
import { OnJob, OnJobFailed } from './on-job';

/** The worker's job providers with their dependencies stubbed, and JobHandlers over Nest's discovery. */
async function boot(providers: Type[]): Promise<JobHandlers> {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [...providers, JobHandlers],
  })
    .useMocker(() => ({}))
    .compile();
  await moduleRef.init();
  return moduleRef.get(JobHandlers);
}

const job = (name: string) => ({ name, data: {} }) as Job;

describe('the job handlers, found by @OnJob at boot and checked against libs/jobs QUEUES', () => {
  it('finds one handler per job name among the worker’s providers, each on its job’s queue', async () => {
    const handlers = await boot(JOB_PROVIDERS);
    expect(handlers.all().map((h) => [h.name, h.queue])).toEqual(JOB_NAMES.map((n) => [n, queueOf(n)]));
    expect(handlers.handlerOf('validate', 'fix-file').where).toBe('ValidateFileProcessor.fixFile');
    expect(handlers.handlerOf('generate', 'generate').failedForGood).toBeInstanceOf(Function);
    expect(handlers.handlerOf('maintenance', 'sweep').failedForGood).toBeUndefined();
  });

  it('refuses to boot when a job name has no handler, naming it and its queue', async () => {
    await expect(boot([GenerateProcessor, ValidateFileProcessor])).rejects.toThrow(
      new JobHandlerError(
        `the worker cannot start: no handler for job "sweep" (queue "maintenance"): ` +
          `decorate the method that runs it with @OnJob('sweep')`,
      ),
    );
    await expect(boot([SweepProcessor])).rejects.toThrow(
      /no handler for job "generate" \(queue "generate"\), "validate-file" \(queue "validate"\), "import-sheet"/,
    );
  });

  it('refuses to boot when a job name has two handlers', async () => {
    @Injectable()
    class SecondSweep {
      @OnJob('sweep')
      sweepAgain(): Promise<void> {
        return Promise.resolve();
      }
    }
    await expect(boot([...JOB_PROVIDERS, SecondSweep])).rejects.toThrow(
      'job "sweep" has 2: SweepProcessor.sweep, SecondSweep.sweepAgain',
    );
  });

  it('dispatches by name to the method discovery found; a name of another queue is refused', async () => {
    const seen: string[] = [];
    @Injectable()
    class Recorder {
      @OnJob('sweep')
      sweep(j: Job): Promise<string> {
        seen.push(`run ${j.name}`);
        return Promise.resolve('swept');
      }
      @OnJobFailed('sweep')
      gaveUp(j: Job, e: Error): Promise<void> {
        seen.push(`failed ${j.name} ${e.message}`);
        return Promise.resolve();
      }
    }
    const handlers = await boot([GenerateProcessor, ValidateFileProcessor, Recorder]);
    const sweep = handlers.handlerOf('maintenance', 'sweep');
    await expect(sweep.run(job('sweep'))).resolves.toBe('swept');
    await sweep.failedForGood!(job('sweep'), new Error('boom'));
    expect(seen).toEqual(['run sweep', 'failed sweep boom']);
    expect(() => handlers.handlerOf('generate', 'sweep')).toThrow(
      'no handler for job "sweep" on queue "generate"',
    );
    expect(() => handlers.handlerOf('generate', 'resize')).toThrow('no handler for job "resize"');
  });
});
