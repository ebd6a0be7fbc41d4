import {
  ConfigError,
  EnvInt,
  EnvTrustProxy,
  ReconcileEnvironment,
  servicesConfigOf,
  ServicesEnvironment,
  trustProxyOf,
  validateEnvironment,
} from './index';

const SERVICES = {
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'a',
  S3_SECRET_KEY: 'b',
  PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

/** The one-line boot error for `env`, or '' when it is accepted. */
function problems(env: Record<string, string>, Environment: new () => object = ServicesEnvironment): string {
  try {
    validateEnvironment(Environment, env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  return '';
}

describe('ServicesEnvironment (API.md §13, class-validator)', () => {
  it('reads the shared services with their defaults', () => {
    expect(servicesConfigOf(validateEnvironment(ServicesEnvironment, SERVICES))).toEqual({
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/ppfile',
      redisUrl: 'redis://127.0.0.1:6379',
      s3: {
        endpoint: 'http://127.0.0.1:9000',
        accessKey: 'a',
        secretKey: 'b',
        bucket: 'ppfile',
        region: 'us-east-1',
      },
      referenceDataDir: null,
      queuePrefix: 'bull',
      payloadEncryptionKey: Buffer.alloc(32, 7),
      processingLeaseSeconds: 600,
      shutdownGraceSeconds: 25,
      logLevel: 'info',
      metricsRefreshSeconds: 15,
    });
  });

  it('an empty variable is an unset one: its default applies', () => {
    const env = validateEnvironment(ServicesEnvironment, { ...SERVICES, QUEUE_PREFIX: '', LOG_LEVEL: '' });
    expect(env).toMatchObject({ QUEUE_PREFIX: 'bull', LOG_LEVEL: 'info' });
  });

  it('keeps only the variables it declares', () => {
    const env = validateEnvironment(ServicesEnvironment, { ...SERVICES, HOME: '/root', PORT: '80' });
    expect(env).not.toHaveProperty('HOME');
    expect(env).not.toHaveProperty('PORT');
  });

  it('reads numbers, a directory made absolute, a log level in capitals and rediss:// (TLS)', () => {
    const env = validateEnvironment(ServicesEnvironment, {
      ...SERVICES,
      PROCESSING_LEASE_SECONDS: '90',
      SHUTDOWN_GRACE_SECONDS: '0',
      PPFILE_REFERENCE_DATA: '.',
      LOG_LEVEL: 'WARN',
      REDIS_URL: 'rediss://:pw@cache.example:6380',
      METRICS_REFRESH_SECONDS: '2',
    });
    expect(servicesConfigOf(env)).toMatchObject({
      metricsRefreshSeconds: 2,
      processingLeaseSeconds: 90,
      shutdownGraceSeconds: 0,
      referenceDataDir: process.cwd(),
      logLevel: 'warn',
      redisUrl: 'rediss://:pw@cache.example:6380',
    });
  });

  it("reads a Redis Cluster's nodes (REDIS_CLUSTER_NODES), none when unset or empty", () => {
    const nodes = 'redis-0.redis:6379,10.0.0.7:7001';
    expect(
      servicesConfigOf(validateEnvironment(ServicesEnvironment, { ...SERVICES, REDIS_CLUSTER_NODES: nodes })),
    ).toMatchObject({ redisClusterNodes: ['redis-0.redis:6379', '10.0.0.7:7001'] });
    for (const unset of [{}, { REDIS_CLUSTER_NODES: '' }])
      expect(
        servicesConfigOf(validateEnvironment(ServicesEnvironment, { ...SERVICES, ...unset })),
      ).not.toHaveProperty('redisClusterNodes');
  });

  it.each([
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ REDIS_CLUSTER_NODES: 'redis-0:6379, redis-1:6379' }, 'REDIS_CLUSTER_NODES must be host:port pairs'],
    [{ REDIS_CLUSTER_NODES: 'redis://redis-0:6379' }, 'REDIS_CLUSTER_NODES must be host:port pairs'],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgresql:// URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a postgresql:// URL'],
    [{ QUEUE_PREFIX: 'a b' }, 'QUEUE_PREFIX must be letters, digits, ".", "_" or "-" (at most 64)'],
    [{ QUEUE_PREFIX: 'x'.repeat(65) }, 'QUEUE_PREFIX must be letters, digits'],
    [{ PROCESSING_LEASE_SECONDS: '0' }, 'PROCESSING_LEASE_SECONDS must be an integer from 1 to 604800'],
    [{ PROCESSING_LEASE_SECONDS: '1.5' }, 'PROCESSING_LEASE_SECONDS must be an integer from 1 to 604800'],
    [{ SHUTDOWN_GRACE_SECONDS: 'soon' }, 'SHUTDOWN_GRACE_SECONDS must be an integer from 0 to 3600'],
    [{ METRICS_REFRESH_SECONDS: '0' }, 'METRICS_REFRESH_SECONDS must be an integer from 1 to 3600'],
    [{ PPFILE_REFERENCE_DATA: '/nonexistent/lists' }, 'PPFILE_REFERENCE_DATA must be an existing directory'],
    [{ S3_ENDPOINT: 'ftp://nope/path' }, 'S3_ENDPOINT must look like http(s)://host[:port]'],
    [{ S3_SECRET_KEY: '' }, 'S3_ACCESS_KEY and S3_SECRET_KEY are required'],
    [{ PAYLOAD_ENCRYPTION_KEY: 'c2hvcnQ=' }, 'PAYLOAD_ENCRYPTION_KEY must be 32 bytes encoded in base64'],
  ])('names the problem of %j', (env, message) => {
    const text = problems({ ...SERVICES, ...env });
    expect(text).toMatch(/^invalid environment: /);
    expect(text).toContain(message);
    // One message for the variable, whatever number of its constraints failed.
    expect(text.split('; ')).toHaveLength(1);
  });

  it('names a missing endpoint or payload key with what to do, and nothing else about them', () => {
    const text = problems({});
    expect(text).toBe(
      'invalid environment: S3_ENDPOINT is required (npm start starts a local S3 endpoint when it is unset); ' +
        'PAYLOAD_ENCRYPTION_KEY is required (32 bytes, base64; `npm start` makes a local one)',
    );
  });

  it('names every problem at once, on one line, in the order the class declares them', () => {
    const text = problems({
      S3_ENDPOINT: 'ftp://nope/path',
      LOG_LEVEL: 'loud',
      REDIS_URL: 'http://127.0.0.1:6379',
      DATABASE_URL: 'mysql://x',
      QUEUE_PREFIX: 'a b',
      PAYLOAD_ENCRYPTION_KEY: 'c2hvcnQ=',
    });
    expect(text).not.toContain('\n');
    expect(text.replace(/^invalid environment: /, '').split('; ')).toEqual([
      'S3_ENDPOINT must look like http(s)://host[:port]',
      'S3_ACCESS_KEY and S3_SECRET_KEY are required',
      'DATABASE_URL must be a postgresql:// URL',
      'REDIS_URL must be a redis:// or rediss:// URL',
      'QUEUE_PREFIX must be letters, digits, ".", "_" or "-" (at most 64)',
      'PAYLOAD_ENCRYPTION_KEY must be 32 bytes encoded in base64 (e.g. `openssl rand -base64 32`)',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ]);
  });

  it('an app extends it: its own variables are checked with the shared ones', () => {
    class AppEnvironment extends ServicesEnvironment {
      @EnvInt(0, 65535)
      PORT = 3000;
    }
    expect(validateEnvironment(AppEnvironment, { ...SERVICES, PORT: '8080' }).PORT).toBe(8080);
    expect(problems({ PORT: 'x', S3_ENDPOINT: 'ftp://nope/path' }, AppEnvironment)).toMatch(
      /S3_ENDPOINT must look like.*PORT must be an integer from 0 to 65535/,
    );
  });

  it('the CLI reconciliation reads the object store and the lease only', () => {
    const env = validateEnvironment(ReconcileEnvironment, {
      S3_ENDPOINT: 'http://s3:9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
    });
    expect(env.PROCESSING_LEASE_SECONDS).toBe(600);
    expect(
      problems({ S3_ENDPOINT: 'http://s3:9000', PROCESSING_LEASE_SECONDS: '-1' }, ReconcileEnvironment),
    ).toBe(
      'invalid environment: S3_ACCESS_KEY and S3_SECRET_KEY are required; PROCESSING_LEASE_SECONDS must be an integer from 1 to 604800',
    );
  });
});

describe('TRUST_PROXY (Express trust proxy)', () => {
  class ProxyEnvironment {
    @EnvTrustProxy()
    TRUST_PROXY?: string;
  }

  it.each([
    ['', false],
    ['false', false],
    ['off', false],
    ['true', true],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.4, loopback', ['10.0.0.0/8', '192.168.1.4', 'loopback']],
    ['fd00::/8', ['fd00::/8']],
  ])('TRUST_PROXY=%j is %j', (raw, expected) => {
    expect(problems({ TRUST_PROXY: raw }, ProxyEnvironment)).toBe('');
    expect(trustProxyOf(raw)).toEqual(expected);
  });

  it.each([
    ['proxy.example', 'proxy.example'],
    ['10.0.0.0/40', '10.0.0.0/40'],
    ['1.2.3', '1.2.3'],
    ['loopback,,nginx', 'nginx'],
  ])('TRUST_PROXY=%j is refused, naming %j', (raw, bad) => {
    expect(problems({ TRUST_PROXY: raw }, ProxyEnvironment)).toBe(
      `invalid environment: TRUST_PROXY must be true, false, a number of hops, or addresses/subnets/loopback/linklocal/uniquelocal separated by commas (not: ${bad})`,
    );
  });
});
