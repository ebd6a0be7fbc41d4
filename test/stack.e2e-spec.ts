import { existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import Redis from 'ioredis';
import { Client as MinioClient } from 'minio';
import { Client as PgClient } from 'pg';
import { freePort, PrivatePostgres, PrivateRedis, PrivateS3, stopGroup } from './support/stack';

/**
 * test/support/stack.ts: the private Redis, PostgreSQL and s3rver that chaos tests kill and
 * restart answer, are really down once stopped, and answer again after a restart on the same port.
 */
jest.setTimeout(60_000);

/** Resolves with the error code of a TCP connect to 127.0.0.1:port ('connected' when it worked). */
function tcpConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

async function pgSelect1(url: string): Promise<number> {
  const client = new PgClient({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query('select 1 as one')).rows[0].one;
  } finally {
    await client.end();
  }
}

async function pgQuery<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new PgClient({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** A client that tries once: no reconnect loop, no offline queue. */
function redisClient(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
}

describe('freePort', () => {
  it('returns a port that can be bound on 127.0.0.1', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(1024);
    await new Promise<void>((resolve, reject) => {
      const srv = createServer().once('error', reject);
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
    });
  });
});

describe('PrivateRedis', () => {
  const redis = new PrivateRedis();
  afterAll(() => redis.destroy());

  it('answers, is down once killed, and answers again empty after a restart', async () => {
    await redis.start();
    expect(redis.port).not.toBe(6379);
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);

    const before = redisClient(redis.url);
    await before.connect();
    expect(await before.ping()).toBe('PONG');
    await before.set('stack:key', 'v1');
    expect(await before.get('stack:key')).toBe('v1');
    const pid = redis.pid!;

    await redis.kill();
    expect(redis.running).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow(); // the process is gone, not just its socket
    expect(await tcpConnect(redis.port)).toBe('ECONNREFUSED');
    await expect(before.ping()).rejects.toThrow();
    before.disconnect();
    const down = redisClient(redis.url);
    const errors: NodeJS.ErrnoException[] = [];
    down.on('error', (e) => errors.push(e));
    await expect(down.connect()).rejects.toThrow();
    expect(errors.map((e) => e.code)).toContain('ECONNREFUSED');
    down.disconnect();

    const port = redis.port;
    await redis.start();
    expect(redis.port).toBe(port);
    const after = redisClient(redis.url);
    await after.connect();
    try {
      expect(await after.ping()).toBe('PONG');
      expect(await after.get('stack:key')).toBeNull(); // no persistence: restarted empty
      expect(await after.dbsize()).toBe(0);
    } finally {
      after.disconnect();
    }

    await redis.kill();
    await redis.kill(); // twice is fine
    await redis.destroy();
  });
});

describe('PrivatePostgres', () => {
  const pg = new PrivatePostgres();
  afterAll(() => pg.destroy());

  it('answers, is down once stopped (fast, immediate, SIGKILL), and restarts the same cluster', async () => {
    await pg.start();
    expect(pg.port).not.toBe(5432);
    expect(pg.url()).toBe(`postgresql://postgres@127.0.0.1:${pg.port}/postgres`);
    expect(pg.url('other')).toBe(`postgresql://postgres@127.0.0.1:${pg.port}/other`);
    expect(await pgSelect1(pg.url())).toBe(1);
    await pgQuery(pg.url(), 'create table kept (v int); insert into kept values (42)');
    const port = pg.port;

    for (const stop of [() => pg.stop('fast'), () => pg.stop('immediate'), () => pg.kill()]) {
      await stop();
      expect(pg.running).toBe(false);
      expect(await tcpConnect(port)).toBe('ECONNREFUSED');
      await expect(pgSelect1(pg.url())).rejects.toMatchObject({ code: 'ECONNREFUSED' });

      await pg.start();
      expect(pg.port).toBe(port);
      expect(pg.running).toBe(true);
      expect(await pgSelect1(pg.url())).toBe(1);
      // Same cluster: the row committed before the stop is still there.
      expect(await pgQuery(pg.url(), 'select v from kept')).toEqual([{ v: 42 }]);
    }

    const dir = pg.directory!;
    expect(existsSync(dir)).toBe(true);
    await pg.destroy();
    await pg.destroy(); // twice is fine
    expect(existsSync(dir)).toBe(false);
    expect(await tcpConnect(port)).toBe('ECONNREFUSED');
  });
});

describe('PrivateS3', () => {
  const s3 = new PrivateS3();
  afterAll(() => s3.destroy());

  const minio = () =>
    new MinioClient({
      endPoint: '127.0.0.1',
      port: s3.port,
      useSSL: false,
      ...s3.credentials,
      region: 'us-east-1',
      pathStyle: true,
    });

  async function read(client: MinioClient, bucket: string, key: string): Promise<string> {
    const stream = await client.getObject(bucket, key);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  }

  it('answers, is down once stopped, and keeps its objects across a restart', async () => {
    await s3.start();
    expect(s3.endpoint).toBe(`http://127.0.0.1:${s3.port}`);
    const client = minio();
    await client.makeBucket('stack-test');
    const body = Buffer.from('hello, private s3');
    await client.putObject('stack-test', 'dir/object.txt', body, body.length, {
      'Content-Type': 'text/plain',
    });
    expect(await read(client, 'stack-test', 'dir/object.txt')).toBe('hello, private s3');
    const pid = s3.pid!;

    await s3.stop();
    expect(s3.running).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await tcpConnect(s3.port)).toBe('ECONNREFUSED');
    await expect(client.statObject('stack-test', 'dir/object.txt')).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });

    const port = s3.port;
    await s3.start();
    expect(s3.port).toBe(port);
    expect(await client.bucketExists('stack-test')).toBe(true);
    expect(await read(client, 'stack-test', 'dir/object.txt')).toBe('hello, private s3');
    expect((await client.statObject('stack-test', 'dir/object.txt')).size).toBe(body.length);

    const dir = s3.directory!;
    await s3.destroy();
    await s3.destroy(); // twice is fine
    expect(existsSync(dir)).toBe(false);
    expect(await tcpConnect(port)).toBe('ECONNREFUSED');
  });
});

describe('stopGroup', () => {
  it('is a no-op for a missing or already exited child', async () => {
    await expect(stopGroup(null)).resolves.toBeUndefined();
    await expect(stopGroup(undefined)).resolves.toBeUndefined();
  });
});
