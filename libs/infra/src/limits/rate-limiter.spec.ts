import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { counterKeys, RateLimiter } from './rate-limiter';

/**
 * Against the machine's Redis (127.0.0.1:6379; PPFILE_TEST_REDIS_URL), under a prefix of this run:
 * the limiter is a Lua script, and only Redis runs it.
 */
const redis = new Redis(process.env.PPFILE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
  maxRetriesPerRequest: 1,
});
const prefix = `test-rl-${randomBytes(6).toString('hex')}`;
let now = 0;
const limiter = new RateLimiter(redis, () => now, prefix);

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

async function burst(counter: string, limit: number, n: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < n; i++) if ((await limiter.hit([{ name: counter, limit }])).allowed) allowed++;
  return allowed;
}

describe('counterKeys: the counters of one check in one hash slot (Redis Cluster)', () => {
  it('tags every key with the broadest counter, the last', () => {
    expect(
      counterKeys('bull:rl', [
        { name: 'key:key_1', limit: 60 },
        { name: 'org:org_1', limit: 60 },
      ]),
    ).toEqual(['bull:rl:{org:org_1}:key:key_1', 'bull:rl:{org:org_1}']);
    expect(counterKeys('bull:rl', [{ name: 'ip:203.0.113.7', limit: 30 }])).toEqual([
      'bull:rl:{ip:203.0.113.7}',
    ]);
  });

  it("keeps an organization's counter one key whichever of its API keys is counted", () => {
    const org = { name: 'org:org_1', limit: 60 };
    expect(counterKeys('p', [{ name: 'key:a', limit: 60 }, org])[1]).toBe(
      counterKeys('p', [{ name: 'key:b', limit: 60 }, org])[1],
    );
  });
});

describe('RateLimiter: per minute means any 60 seconds', () => {
  it('lets at most the limit through across a minute boundary (issue 19: 59 of 30 in 1.6 s with fixed windows)', async () => {
    now = Date.UTC(2026, 10, 25, 12, 0, 59, 200);
    expect(await burst('org:a', 30, 40)).toBe(30);
    now += 1600; // 12:01:00.800 — a new clock minute, the same 60 seconds
    expect(await burst('org:a', 30, 40)).toBe(0);
    now += 60_000 - 1600; // the first ones leave the window
    expect(await burst('org:a', 30, 40)).toBe(30);
  });

  it('frees one place as each request leaves the window, and says when (Reset, seconds)', async () => {
    now = 1_000_000;
    for (let i = 0; i < 3; i++) {
      await limiter.hit([{ name: 'key:b', limit: 3 }]);
      now += 10_000;
    }
    // 30 s after the first: full, and the first leaves in 30 s.
    const refused = await limiter.hit([{ name: 'key:b', limit: 3 }]);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, reset: 30 });
    now += 30_001;
    const next = await limiter.hit([{ name: 'key:b', limit: 3 }]);
    expect(next.allowed).toBe(true);
    expect(next.remaining).toBe(0);
  });

  it('counts a request under every counter only when all admit it, and reports the tighter', async () => {
    now = 5_000_000;
    for (let i = 0; i < 2; i++)
      expect(
        (
          await limiter.hit([
            { name: 'key:c', limit: 2 },
            { name: 'org:c', limit: 10 },
          ])
        ).allowed,
      ).toBe(true);
    // The organization has room, the key does not: refused, and the organization not charged.
    const r = await limiter.hit([
      { name: 'key:c', limit: 2 },
      { name: 'org:c', limit: 10 },
    ]);
    expect(r).toMatchObject({ allowed: false, limit: 2, remaining: 0 });
    const other = await limiter.hit([
      { name: 'key:c2', limit: 5 },
      { name: 'org:c', limit: 10 },
    ]);
    expect(other).toMatchObject({ allowed: true, limit: 5, remaining: 4 });
    // The key's two and the other key's one: not the refused request.
    expect(await redis.zcard(`${prefix}:{org:c}`)).toBe(3);
  });

  it('never keeps more entries than the limit, and lets the keys expire', async () => {
    now = 9_000_000;
    await burst('ip:d', 5, 50);
    expect(await redis.zcard(`${prefix}:{ip:d}`)).toBe(5);
    expect(await redis.pttl(`${prefix}:{ip:d}`)).toBeGreaterThan(0);
  });

  it('sends the script by its hash, whole only when Redis does not know it: one round trip a request', async () => {
    const calls: string[] = [];
    let forget = true;
    const counting = new Proxy(redis, {
      get(target, prop, receiver) {
        if (prop === 'evalsha')
          return async (...a: Parameters<Redis['evalsha']>) => {
            calls.push('evalsha');
            if (forget) {
              forget = false;
              throw new Error('NOSCRIPT No matching script. Please use EVAL.');
            }
            return target.evalsha(...a);
          };
        if (prop === 'eval')
          return (...a: Parameters<Redis['eval']>) => {
            calls.push('eval');
            return target.eval(...a);
          };
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const l = new RateLimiter(counting, () => now, prefix);
    now = 5_000_000;
    // A request's counters, as the gateway checks them: the key's and its organization's (one hash tag).
    const counters = [
      { name: 'key:sha', limit: 2 },
      { name: 'org:sha', limit: 5 },
    ];
    expect(await l.hit(counters)).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(calls).toEqual(['evalsha', 'eval']);
    calls.length = 0;
    expect(await l.hit(counters)).toMatchObject({ allowed: true, limit: 2, remaining: 0 });
    expect(calls).toEqual(['evalsha']);
  });
});
