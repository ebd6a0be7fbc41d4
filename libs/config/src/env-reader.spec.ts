import { ConfigError, EnvReader } from './index';

describe('EnvReader', () => {
  it('reads the shared services with their defaults', () => {
    const read = new EnvReader({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'a', S3_SECRET_KEY: 'b' });
    expect(read.services()).toEqual({
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/ppfile',
      redisUrl: 'redis://127.0.0.1:6379',
      s3: { endpoint: 'http://127.0.0.1:9000', accessKey: 'a', secretKey: 'b', bucket: 'ppfile', region: 'us-east-1' },
      referenceDataDir: null,
      queuePrefix: 'bull',
    });
    expect(() => read.done()).not.toThrow();
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
