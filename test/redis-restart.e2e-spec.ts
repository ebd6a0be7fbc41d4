import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import request from 'supertest';
import { monthOf } from '@ppfile/db';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { startGateway, type Gateway } from './support/gateway';

/**
 * Redis restarted during a run (rate limits, queues): requests fail with 503 SERVICE_UNAVAILABLE and
 * count nothing, then the gateway recovers by itself. A Redis server of its own (on a free port) so
 * that the other suites, which share the machine's Redis, are not disturbed.
 */
let redis: ChildProcess | null = null;
let port = 0;
let gw: Gateway;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as { port: number }).port;
      srv.close(() => resolve(p));
    });
  });
}

async function startRedis(): Promise<void> {
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    redis!.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Ready to accept connections/i.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

async function stopRedis(): Promise<void> {
  if (!redis) return;
  const exited = new Promise((r) => redis!.once('exit', r));
  redis.kill('SIGKILL');
  await exited;
  redis = null;
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
  gw = await startGateway({ redisUrl: `redis://127.0.0.1:${port}` });
}, 60_000);
afterAll(async () => {
  await gw?.close().catch(() => undefined);
  await stopRedis();
}, 60_000);

it('answers 503 while Redis is down, counts nothing, and recovers when it is back', async () => {
  const org = await gw.organization('pro');
  const auth = { Authorization: `Bearer ${org.live}` };
  const body = validBody('adf', 'employer', 3);
  expect((await request(gw.http).post('/v1/files/generate').set(auth).send(body)).status).toBe(200);
  expect((await gw.stores.usage.getUsage(org.id, monthOf(new Date()))).used).toBe(3);

  await stopRedis();
  const down = await request(gw.http).post('/v1/files/generate').set(auth).send(body);
  expect(down.status).toBe(503);
  expect(down.body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect((await request(gw.http).post('/v1/declarations/validate').set(auth).send(body)).status).toBe(503);
  expect((await gw.stores.usage.getUsage(org.id, monthOf(new Date()))).used).toBe(3);
  expect(await gw.prisma.fileRecord.count({ where: { organizationId: org.id } })).toBe(1);

  await startRedis();
  const deadline = Date.now() + 20_000;
  let back: request.Response;
  do {
    await new Promise((r) => setTimeout(r, 200));
    back = await request(gw.http).post('/v1/files/generate').set(auth).send(body);
  } while (back.status === 503 && Date.now() < deadline);
  expect(back.status).toBe(200);
  expect((await gw.stores.usage.getUsage(org.id, monthOf(new Date()))).used).toBe(6);
}, 60_000);
