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
      s3: { endpoint: 'http://127.0.0.1:9000', accessKey: 'a', secretKey: 'b', bucket: 'ppfile', region: 'us-east-1' },
      referenceDataDir: null,
      queuePrefix: 'bull',
      payloadEncryptionKey: key,
      processingLeaseSeconds: 600,
      shutdownGraceSeconds: 25,
    });
    expect(() => read.done()).not.toThrow();
  });

  it('requires a 32-byte payload encryption key', () => {
    const missing = new EnvReader({ S3_ENDPOINT: 'http://s3:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' });
    missing.services();
    expect(() => missing.done()).toThrow(/PAYLOAD_ENCRYPTION_KEY is required/);
    const short = new EnvReader({ S3_ENDPOINT: 'http://s3:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b', PAYLOAD_ENCRYPTION_KEY: 'c2hvcnQ=' });
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
