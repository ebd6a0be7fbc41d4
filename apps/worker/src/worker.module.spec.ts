import { JOB_NAMES, QUEUE_NAMES, queueOf } from '@ppfile/jobs';
import { GenerateProcessor } from './processors/generate.processor';
import { SweepProcessor } from './processors/sweep.processor';
import { ValidateFileProcessor } from './processors/validate-file.processor';
import { checkProcessors, PROCESSOR_CLASSES, type ProcessorClass } from './worker.module';

describe('the worker refuses to start without a processor for every job', () => {
  it('has one processor per queue, together taking every job name of libs/jobs', () => {
    expect(() => checkProcessors(PROCESSOR_CLASSES)).not.toThrow();
    expect(PROCESSOR_CLASSES.map((p) => queueOf(p.handles[0] as never)).sort()).toEqual(
      [...QUEUE_NAMES].sort(),
    );
    expect(PROCESSOR_CLASSES.flatMap((p) => p.handles).sort()).toEqual([...JOB_NAMES].sort());
  });

  it('names the job names left without a processor', () => {
    expect(() => checkProcessors([GenerateProcessor, ValidateFileProcessor])).toThrow(
      'no processor for job name(s): sweep',
    );
    expect(() => checkProcessors([SweepProcessor])).toThrow(
      'no processor for job name(s): generate, validate-file',
    );
  });

  it('refuses a processor whose jobs travel on two queues', () => {
    const mixed = { name: 'Mixed', handles: ['generate', 'sweep'] } as unknown as ProcessorClass;
    expect(() => checkProcessors([...PROCESSOR_CLASSES, mixed])).toThrow('one queue: Mixed');
  });
});
