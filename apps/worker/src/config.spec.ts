import { ConfigError, loadWorkerConfig } from './config';

const BASE = {
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'a',
  S3_SECRET_KEY: 'b',
  PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

describe('worker configuration (API.md §13)', () => {
  it('defaults: one generation, two validations and one maintenance job at a time; port 3001', () => {
    expect(loadWorkerConfig(BASE)).toMatchObject({
      databasePoolMax: 4,
      queues: ['generate', 'validate', 'maintenance'],
      concurrency: { generate: 1, validate: 2, maintenance: 1 },
      sweepIntervalSeconds: 60,
      lockSeconds: 60,
      reconcileIntervalSeconds: 30,
      httpPort: 3001,
      uploadTimeBudgetMs: 60_000,
      operator: null,
      queuePrefix: 'bull',
    });
  });

  it('reads each setting', () => {
    const config = loadWorkerConfig({
      ...BASE,
      WORKER_CONCURRENCY_VALIDATE: '8',
      SWEEP_INTERVAL_SECONDS: '0',
      UPLOAD_TIME_BUDGET_SECONDS: '0.25',
      OPERATOR_USER: 'ops',
      OPERATOR_PASSWORD: 'pw',
    });
    expect(config.concurrency.validate).toBe(8);
    expect(config.sweepIntervalSeconds).toBe(0);
    expect(config.uploadTimeBudgetMs).toBe(250);
    expect(config.operator).toEqual({ user: 'ops', password: 'pw' });
  });

  it('fails at boot naming every problem at once, on one line', () => {
    let message = '';
    try {
      loadWorkerConfig({
        ...BASE,
        WORKER_CONCURRENCY_GENERATE: '0',
        DATABASE_POOL_MAX: '101',
        WORKER_HTTP_PORT: '70000',
        UPLOAD_TIME_BUDGET_SECONDS: '0',
        OPERATOR_USER: 'ops',
        LOG_LEVEL: 'chatty',
      });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message.replace(/^invalid environment: /, '').split('; ')).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'DATABASE_POOL_MAX must be an integer from 1 to 100',
      'WORKER_CONCURRENCY_GENERATE must be an integer from 1 to 64',
      'WORKER_HTTP_PORT must be an integer from 0 to 65535',
      'UPLOAD_TIME_BUDGET_SECONDS must be a number of seconds from 0.01 to 3600',
      'OPERATOR_USER and OPERATOR_PASSWORD go together: set both or neither',
    ]);
  });

  describe('WORKER_QUEUES: the queues a pool takes', () => {
    it('reads a comma list, spaces and repeats forgiven, in the order of libs/jobs QUEUES', () => {
      expect(loadWorkerConfig({ ...BASE, WORKER_QUEUES: 'maintenance, generate' }).queues).toEqual([
        'generate',
        'maintenance',
      ]);
      expect(loadWorkerConfig({ ...BASE, WORKER_QUEUES: 'validate,validate,' }).queues).toEqual(['validate']);
    });

    it('unset or empty: every queue (an empty variable counts as unset, as every other)', () => {
      expect(loadWorkerConfig({ ...BASE, WORKER_QUEUES: '' }).queues).toEqual([
        'generate',
        'validate',
        'maintenance',
      ]);
    });

    it('refuses to boot on an unknown queue, naming it', () => {
      expect(() => loadWorkerConfig({ ...BASE, WORKER_QUEUES: 'generate,ppfile,sweep' })).toThrow(
        new ConfigError(
          'invalid environment: WORKER_QUEUES must be a comma list of queues among generate, validate, maintenance (not: ppfile, sweep)',
        ),
      );
    });

    it('refuses to boot on a list without a name', () => {
      expect(() => loadWorkerConfig({ ...BASE, WORKER_QUEUES: ' , ' })).toThrow(
        new ConfigError(
          'invalid environment: WORKER_QUEUES must be a comma list of queues among generate, validate, maintenance (none given)',
        ),
      );
    });
  });
});
