import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  FallbackOperatorStore,
  MemoryOperatorStore,
  OPERATOR_THROTTLE_LIMITS,
  OperatorThrottle,
  RedisOperatorStore,
  type OperatorStore,
} from './operator-throttle';

const LIMITS = OPERATOR_THROTTLE_LIMITS;
const PASS = { outcome: 'pass' };
const CHALLENGE = { outcome: 'challenge' };
const THROTTLED = { outcome: 'throttled' };

/**
 * The rules of operator sign-in (operator-throttle.ts), against each store: this process's memory,
 * and the machine's Redis (127.0.0.1:6379; PPFILE_TEST_REDIS_URL) under a prefix of this run, where
 * they are a Lua script.
 */
const redis = new Redis(process.env.PPFILE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
  maxRetriesPerRequest: 1,
});
const prefix = `test-opauth-${randomBytes(6).toString('hex')}`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

const STORES: [string, () => OperatorStore][] = [
  ['memory', () => new MemoryOperatorStore()],
  ['Redis', () => new RedisOperatorStore(redis, `${prefix}-${randomBytes(4).toString('hex')}`)],
];

describe.each(STORES)('OperatorThrottle over %s', (_name, makeStore) => {
  function setup() {
    let now = Date.UTC(2026, 0, 1);
    const throttle = new OperatorThrottle(makeStore(), () => now, LIMITS);
    return { throttle, advance: (ms: number) => (now += ms) };
  }

  it('after 10 failures from an address, wrong credentials get 429 while the right ones still pass (issue 32)', async () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 10; i++) {
      await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toEqual(CHALLENGE);
      advance(1000);
    }
    // The 11th failure: 429, for what remains of the 5 minutes that began with the first failure.
    await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toEqual({
      outcome: 'throttled',
      retryAfterSeconds: 290,
    });
    await expect(throttle.attempt('203.0.113.7', 'operator', 'right')).resolves.toEqual(PASS);
    // No credentials: the challenge, so that a browser asks for the password.
    await expect(throttle.attempt('203.0.113.7', null, 'none')).resolves.toEqual(CHALLENGE);
    await expect(throttle.attempt('203.0.113.7', null, 'wrong')).resolves.toMatchObject(THROTTLED);
    // Other addresses are not affected.
    await expect(throttle.attempt('203.0.113.8', 'operator', 'wrong')).resolves.toEqual(CHALLENGE);
    advance(289_000);
    await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toEqual({
      outcome: 'throttled',
      retryAfterSeconds: 1,
    });
    advance(1000);
    // A new window: 10 failures again before 429.
    for (let i = 0; i < 10; i++)
      await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toEqual(CHALLENGE);
    await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toMatchObject(THROTTLED);
  });

  it('past 30 failures from an address in a window, nothing from it is checked: 429 for the right password too', async () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 30; i++) await throttle.attempt('203.0.113.7', `guess-${i}`, 'wrong');
    await expect(throttle.attempt('203.0.113.7', 'operator', 'right')).resolves.toEqual({
      outcome: 'throttled',
      retryAfterSeconds: 300,
    });
    await expect(throttle.attempt('203.0.113.7', null, 'none')).resolves.toMatchObject(THROTTLED);
    // A refused attempt counts nothing and extends nothing.
    advance(300_000);
    await expect(throttle.attempt('203.0.113.7', 'operator', 'right')).resolves.toEqual(PASS);
    await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toEqual(CHALLENGE);
  });

  it('a user name past 20 failures from many addresses: checked only from addresses the right password came from', async () => {
    const { throttle, advance } = setup();
    // Prometheus has been scraping from 192.0.2.10 (within the last 7 days).
    await expect(throttle.attempt('192.0.2.10', 'operator', 'right')).resolves.toEqual(PASS);
    advance(6 * 24 * 3_600_000);
    await expect(throttle.attempt('192.0.2.10', 'operator', 'right')).resolves.toEqual(PASS);
    for (let i = 0; i < 20; i++)
      await expect(throttle.attempt(`198.51.100.${i}`, 'operator', 'wrong')).resolves.toEqual(CHALLENGE);
    // A fresh address: not checked, whatever it sends (guessing spread over addresses stays at 20).
    await expect(throttle.attempt('198.51.100.200', 'operator', 'right')).resolves.toEqual({
      outcome: 'throttled',
      retryAfterSeconds: 300,
    });
    await expect(throttle.attempt('198.51.100.201', 'operator', 'wrong')).resolves.toMatchObject(THROTTLED);
    // The trusted address: the right password passes (trust renewed 6 days ago, still 7 days), a wrong one is 429.
    advance(2 * 24 * 3_600_000 - 300_000 + 60_000);
    for (let i = 0; i < 20; i++) await throttle.attempt(`198.51.100.${i}`, 'operator', 'wrong');
    await expect(throttle.attempt('192.0.2.10', 'operator', 'right')).resolves.toEqual(PASS);
    await expect(throttle.attempt('192.0.2.10', 'operator', 'wrong')).resolves.toMatchObject(THROTTLED);
    // Another user name, and requests without credentials, from a fresh address: as usual.
    await expect(throttle.attempt('198.51.100.202', 'root', 'wrong')).resolves.toEqual(CHALLENGE);
    await expect(throttle.attempt('198.51.100.203', null, 'none')).resolves.toEqual(CHALLENGE);
  });

  it('trust lasts 7 days from the last success, judged by the clock', async () => {
    const { throttle, advance } = setup();
    await throttle.attempt('192.0.2.10', 'operator', 'right');
    advance(7 * 24 * 3_600_000);
    for (let i = 0; i < 20; i++) await throttle.attempt(`198.51.100.${i}`, 'operator', 'wrong');
    await expect(throttle.attempt('192.0.2.10', 'operator', 'right')).resolves.toMatchObject(THROTTLED);
  });

  it('successes and requests without credentials neither count nor reset the failures', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 5; i++) await throttle.attempt('203.0.113.7', 'operator', 'wrong');
    for (let i = 0; i < 100; i++) {
      await expect(throttle.attempt('203.0.113.7', 'operator', 'right')).resolves.toEqual(PASS);
      await expect(throttle.attempt('203.0.113.7', null, 'none')).resolves.toEqual(CHALLENGE);
    }
    for (let i = 0; i < 5; i++)
      await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toEqual(CHALLENGE);
    await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toMatchObject(THROTTLED);
  });

  it('concurrent guesses cannot pass the limits: 10 challenged, then 20 more checked, then none', async () => {
    const { throttle } = setup();
    const verdicts = await Promise.all(
      Array.from({ length: 100 }, (_, i) => throttle.attempt('203.0.113.7', `guess-${i}`, 'wrong')),
    );
    expect(verdicts.filter((v) => v.outcome === 'challenge')).toHaveLength(10);
    await expect(throttle.attempt('203.0.113.7', 'operator', 'right')).resolves.toMatchObject(THROTTLED);
  });

  it('IPv6 addresses count by /64', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 30; i++) await throttle.attempt(`2001:db8:1:2::${i + 1}`, null, 'wrong');
    await expect(throttle.attempt('2001:db8:1:2:ffff::9', 'operator', 'right')).resolves.toMatchObject(
      THROTTLED,
    );
    await expect(throttle.attempt('2001:db8:1:3::1', 'operator', 'right')).resolves.toEqual(PASS);
  });
});

describe('FallbackOperatorStore', () => {
  it('counts in memory while the primary store fails, and warns once a minute', async () => {
    const broken: OperatorStore = {
      signIn: () => Promise.reject(Object.assign(new Error('down'), { code: 'ECONNREFUSED' })),
    };
    const warn = jest.fn();
    const store = new FallbackOperatorStore(broken, new MemoryOperatorStore(), { warn });
    let now = 0;
    const throttle = new OperatorThrottle(store, () => now, LIMITS);
    for (let i = 0; i < 10; i++)
      await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toEqual(CHALLENGE);
    await expect(throttle.attempt('203.0.113.7', 'operator', 'wrong')).resolves.toMatchObject(THROTTLED);
    await expect(throttle.attempt('203.0.113.7', 'operator', 'right')).resolves.toEqual(PASS);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('ECONNREFUSED');
    now += 60_000;
    await throttle.attempt('203.0.113.8', 'operator', 'right');
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
