import { ConfigError, EnvReader } from './index';

describe('EnvReader', () => {
  it('reads the shared services with their defaults', () => {
    const key = Buffer.alloc(32, 7);
    const read = new EnvReader({
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      PAYLOAD_ENCRYPTION_KEY: key.toString('base64'),
    });
    expect(read.services()).toEqual({
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
      payloadEncryptionKey: key,
      processingLeaseSeconds: 600,
      shutdownGraceSeconds: 25,
      logLevel: 'info',
    });
    expect(() => read.done()).not.toThrow();
  });

  it('names every problem at once: LOG_LEVEL, a Redis or PostgreSQL URL of another scheme, QUEUE_PREFIX', () => {
    const read = new EnvReader({
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
      LOG_LEVEL: 'loud',
      REDIS_URL: 'http://127.0.0.1:6379',
      DATABASE_URL: 'mysql://x',
      QUEUE_PREFIX: 'a b',
    });
    read.services();
    let message = '';
    try {
      read.done();
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toMatch(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
    expect(message).toMatch(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(message).toMatch(/DATABASE_URL must be a postgresql:\/\/ URL/);
    expect(message).toMatch(/QUEUE_PREFIX must be letters, digits/);
  });

  it('accepts rediss:// (TLS) and a log level in capitals', () => {
    const read = new EnvReader({
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
      LOG_LEVEL: 'WARN',
      REDIS_URL: 'rediss://:pw@cache.example:6380',
    });
    expect(read.services()).toMatchObject({ redisUrl: 'rediss://:pw@cache.example:6380', logLevel: 'warn' });
    expect(() => read.done()).not.toThrow();
  });

  it.each([
    ['', false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.4, loopback', ['10.0.0.0/8', '192.168.1.4', 'loopback']],
    ['fd00::/8', ['fd00::/8']],
  ])('TRUST_PROXY=%j is %j (Express trust proxy)', (raw, expected) => {
    const read = new EnvReader({ TRUST_PROXY: raw });
    expect(read.trustProxy()).toEqual(expected);
    expect(() => read.done()).not.toThrow();
  });

  it.each(['proxy.example', '10.0.0.0/40', '1.2.3', 'loopback,,nginx'])(
    'TRUST_PROXY=%j is refused, naming the entry',
    (raw) => {
      const read = new EnvReader({ TRUST_PROXY: raw });
      read.trustProxy();
      expect(() => read.done()).toThrow(/TRUST_PROXY must be true, false, a number of hops/);
    },
  );

  it('requires a 32-byte payload encryption key', () => {
    const missing = new EnvReader({ S3_ENDPOINT: 'http://s3:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' });
    missing.services();
    expect(() => missing.done()).toThrow(/PAYLOAD_ENCRYPTION_KEY is required/);
    const short = new EnvReader({
      S3_ENDPOINT: 'http://s3:9000',
      S3_ACCESS_KEY: 'a',
      S3_SECRET_KEY: 'b',
      PAYLOAD_ENCRYPTION_KEY: 'c2hvcnQ=',
    });
    short.services();
    expect(() => short.done()).toThrow(/PAYLOAD_ENCRYPTION_KEY must be 32 bytes/);
  });

  it('names every problem at once', () => {
    const read = new EnvReader({ PORT: 'x', S3_ENDPOINT: 'ftp://nope/path' });
    read.services();
    read.int('PORT', 3000, 0, 65535);
    expect(() => read.done()).toThrow(ConfigError);
    expect(() => read.done()).toThrow(/S3_ENDPOINT must look like.*PORT must be an integer from 0 to 65535/);
  });

  it('requires S3 credentials with an endpoint', () => {
    const read = new EnvReader({ S3_ENDPOINT: 'http://s3:9000' });
    read.services();
    expect(() => read.done()).toThrow(/S3_ACCESS_KEY and S3_SECRET_KEY are required/);
  });
});
