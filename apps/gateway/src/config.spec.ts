import { ConfigError, loadGatewayConfig } from './config';

const BASE = {
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'a',
  S3_SECRET_KEY: 'b',
  PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

function problems(env: Record<string, string>): string {
  try {
    loadGatewayConfig({ ...BASE, ...env });
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  return '';
}

describe('gateway configuration (API.md §13)', () => {
  it('defaults: trust proxy off, log level info, no operator pages, Bull Board read-only', () => {
    const config = loadGatewayConfig(BASE);
    expect(config).toMatchObject({
      trustProxy: false,
      logLevel: 'info',
      operator: null,
      bullBoardWritable: false,
      port: 3000,
    });
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
  });

  it('operator credentials, BULL_BOARD_WRITABLE, TRUST_PROXY and LOG_LEVEL are read by the schema', () => {
    const config = loadGatewayConfig({
      ...BASE,
      OPERATOR_USER: 'ops',
      OPERATOR_PASSWORD: 'secret',
      BULL_BOARD_WRITABLE: 'true',
      TRUST_PROXY: '10.0.0.0/8',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      operator: { user: 'ops', password: 'secret' },
      bullBoardWritable: true,
      trustProxy: ['10.0.0.0/8'],
      logLevel: 'debug',
    });
  });

  it('fails at boot naming every problem at once', () => {
    const message = problems({
      OPERATOR_USER: 'ops',
      BULL_BOARD_WRITABLE: 'maybe',
      TRUST_PROXY: 'my-proxy',
      LOG_LEVEL: 'chatty',
      PORT: '99999',
      REDIS_URL: 'tcp://x',
      PUBLIC_BASE_URL: 'not a url',
      PPFILE_REFERENCE_DATA: '/nonexistent/reference-data',
    });
    for (const name of [
      'OPERATOR_USER and OPERATOR_PASSWORD go together',
      'BULL_BOARD_WRITABLE must be true or false',
      'TRUST_PROXY',
      'LOG_LEVEL',
      'PORT',
      'REDIS_URL',
      'PUBLIC_BASE_URL must be an http:// or https:// URL',
      'PPFILE_REFERENCE_DATA must be an existing directory',
    ]) {
      expect(message).toContain(name);
    }
  });

  it('PUBLIC_BASE_URL loses its trailing slashes', () => {
    expect(loadGatewayConfig({ ...BASE, PUBLIC_BASE_URL: 'https://ppfile.example.org/' }).publicBaseUrl).toBe(
      'https://ppfile.example.org',
    );
  });

  it('a writable Bull Board needs operator credentials', () => {
    expect(problems({ BULL_BOARD_WRITABLE: 'true' })).toContain(
      'BULL_BOARD_WRITABLE needs OPERATOR_USER and OPERATOR_PASSWORD',
    );
  });
});

describe('GatewayEnvironment: its own variables', () => {
  it('reads the numbers and their defaults', () => {
    const config = loadGatewayConfig({ ...BASE, DATABASE_POOL_MAX: '20', QUEUE_WAIT_SECONDS: '30' });
    expect(config).toMatchObject({
      databasePoolMax: 20,
      rateLimitScale: 1,
      authCacheSeconds: 5,
      testRowsPerMonth: 1000,
      maxInflightBytes: 128 * 1024 * 1024,
      body: { timeoutSeconds: 120, minBytesPerSecond: 16 * 1024, graceSeconds: 10 },
      queue: {
        generateThresholdRows: 2000,
        validateThresholdBytes: 2 * 1024 * 1024,
        waitSeconds: 30,
        prefix: 'bull',
      },
    });
    expect(config.rulesThreads).toBeUndefined();
    expect(loadGatewayConfig({ ...BASE, RULES_THREADS: '0' }).rulesThreads).toBe(0);
    expect(loadGatewayConfig({ ...BASE, PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
  });

  it.each(['yes', 'TRUE', '1'])('BULL_BOARD_WRITABLE=%s is true', (raw) => {
    const env = { ...BASE, OPERATOR_USER: 'ops', OPERATOR_PASSWORD: 'pw', BULL_BOARD_WRITABLE: raw };
    expect(loadGatewayConfig(env).bullBoardWritable).toBe(true);
  });

  it('names each problem once, in one line, with its bounds', () => {
    const message = problems({
      DATABASE_POOL_MAX: '0',
      RULES_THREADS: '65',
      MAX_INFLIGHT_BYTES: '1024',
      BODY_TIMEOUT_SECONDS: 'x',
      OPERATOR_PASSWORD: 'secret',
    });
    expect(message.replace(/^invalid environment: /, '').split('; ')).toEqual([
      'OPERATOR_USER and OPERATOR_PASSWORD go together: set both or neither',
      'DATABASE_POOL_MAX must be an integer from 1 to 200',
      'RULES_THREADS must be an integer from 0 to 64',
      'MAX_INFLIGHT_BYTES must be an integer from 1048576 to 68719476736',
      'BODY_TIMEOUT_SECONDS must be an integer from 5 to 3600',
    ]);
  });
});
