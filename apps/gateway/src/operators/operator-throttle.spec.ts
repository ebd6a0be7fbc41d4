import {
  FallbackFailureStore,
  MemoryFailureStore,
  OperatorThrottle,
  addressKey,
  type FailureStore,
  type OperatorThrottleLimits,
} from './operator-throttle';

const LIMITS: OperatorThrottleLimits = { windowMs: 5 * 60_000, perAddress: 10, perUser: 20 };

function setup(limits = LIMITS) {
  let now = Date.UTC(2026, 0, 1);
  const store = new MemoryFailureStore();
  const throttle = new OperatorThrottle(store, () => now, limits);
  return { throttle, store, advance: (ms: number) => (now += ms) };
}

describe('OperatorThrottle', () => {
  it('refuses an address after 10 failures, even with the right password, until the window has passed', async () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 10; i++) {
      await expect(throttle.attempt('203.0.113.7', 'operator', true)).resolves.toEqual({ allowed: true });
      advance(1000);
    }
    // The 11th: refused, for what remains of the 5 minutes that began with the first failure.
    await expect(throttle.attempt('203.0.113.7', 'operator', true)).resolves.toEqual({
      allowed: false,
      retryAfterSeconds: 290,
    });
    await expect(throttle.attempt('203.0.113.7', 'operator', false)).resolves.toEqual({
      allowed: false,
      retryAfterSeconds: 290,
    });
    await expect(throttle.attempt('203.0.113.7', null, false)).resolves.toMatchObject({ allowed: false });
    // Refused attempts do not extend the window.
    advance(289_000);
    await expect(throttle.attempt('203.0.113.7', 'operator', false)).resolves.toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    });
    advance(1000);
    await expect(throttle.attempt('203.0.113.7', 'operator', false)).resolves.toEqual({ allowed: true });
    // A new window: 10 failures again.
    for (let i = 0; i < 10; i++)
      await expect(throttle.attempt('203.0.113.7', 'operator', true)).resolves.toEqual({ allowed: true });
    await expect(throttle.attempt('203.0.113.7', 'operator', true)).resolves.toMatchObject({
      allowed: false,
    });
  });

  it('other addresses are not affected by one address being throttled', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 11; i++) await throttle.attempt('203.0.113.7', 'x', true);
    await expect(throttle.attempt('203.0.113.7', 'operator', false)).resolves.toMatchObject({
      allowed: false,
    });
    await expect(throttle.attempt('203.0.113.8', 'operator', false)).resolves.toEqual({ allowed: true });
  });

  it('refuses a user name after 20 failures from any addresses', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 20; i++) {
      await expect(throttle.attempt(`198.51.100.${i}`, 'operator', true)).resolves.toEqual({ allowed: true });
    }
    await expect(throttle.attempt('198.51.100.200', 'operator', false)).resolves.toEqual({
      allowed: false,
      retryAfterSeconds: 300,
    });
    // Another user name from a fresh address is not refused.
    await expect(throttle.attempt('198.51.100.201', 'root', true)).resolves.toEqual({ allowed: true });
    await expect(throttle.attempt('198.51.100.202', null, false)).resolves.toEqual({ allowed: true });
  });

  it('successes and attempts without credentials do not count', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 100; i++)
      await expect(throttle.attempt('203.0.113.7', 'operator', false)).resolves.toEqual({ allowed: true });
    for (let i = 0; i < 100; i++)
      await expect(throttle.attempt('203.0.113.7', null, false)).resolves.toEqual({ allowed: true });
    for (let i = 0; i < 10; i++)
      await expect(throttle.attempt('203.0.113.7', 'operator', true)).resolves.toEqual({ allowed: true });
    await expect(throttle.attempt('203.0.113.7', 'operator', false)).resolves.toMatchObject({
      allowed: false,
    });
  });

  it('concurrent guesses cannot pass the limit', async () => {
    const { throttle } = setup();
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => throttle.attempt('203.0.113.7', 'operator', true)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(10);
  });

  it('IPv4-mapped addresses are their IPv4 address; IPv6 addresses count by /64', async () => {
    expect(addressKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    const { throttle } = setup();
    for (let i = 0; i < 10; i++) await throttle.attempt(`2001:db8:1:2::${i + 1}`, null, true);
    await expect(throttle.attempt('2001:db8:1:2:ffff::9', null, false)).resolves.toMatchObject({
      allowed: false,
    });
    await expect(throttle.attempt('2001:db8:1:3::1', null, false)).resolves.toEqual({ allowed: true });
  });
});

describe('MemoryFailureStore', () => {
  it('holds at most maxEntries counters, dropping expired ones first, then the oldest', async () => {
    const store = new MemoryFailureStore(3);
    const limit = 5;
    await store.attempt([{ name: 'a', limit }], true, 0, 1000);
    await store.attempt([{ name: 'b', limit }], true, 500, 1000);
    await store.attempt([{ name: 'c', limit }], true, 900, 1000);
    expect(store.size).toBe(3);
    // At 1200, "a" has expired: it goes first.
    await store.attempt([{ name: 'd', limit }], true, 1200, 1000);
    expect(store.size).toBe(3);
    // Nothing expired at 1300: the oldest ("b") goes.
    await store.attempt([{ name: 'e', limit }], true, 1300, 1000);
    expect(store.size).toBe(3);
    for (let i = 0; i < 4; i++) await store.attempt([{ name: 'c', limit }], true, 1300, 1000);
    await expect(store.attempt([{ name: 'c', limit }], false, 1300, 1000)).resolves.toBe(600);
  });
});

describe('FallbackFailureStore', () => {
  it('counts in memory while the primary store fails, and warns once a minute', async () => {
    const broken: FailureStore = {
      attempt: () => Promise.reject(Object.assign(new Error('down'), { code: 'ECONNREFUSED' })),
    };
    const warn = jest.fn();
    const store = new FallbackFailureStore(broken, new MemoryFailureStore(), { warn });
    let now = 0;
    const throttle = new OperatorThrottle(store, () => now, LIMITS);
    for (let i = 0; i < 10; i++)
      await expect(throttle.attempt('203.0.113.7', 'operator', true)).resolves.toEqual({ allowed: true });
    await expect(throttle.attempt('203.0.113.7', 'operator', false)).resolves.toMatchObject({
      allowed: false,
    });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('ECONNREFUSED');
    now += 60_000;
    await throttle.attempt('203.0.113.8', 'operator', false);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
