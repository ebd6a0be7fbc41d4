import { addressKey, FallbackFailureStore, MemoryFailureStore, type FailureStore } from './throttle-store';

describe('addressKey', () => {
  it('IPv4-mapped addresses are their IPv4 address; IPv6 addresses count by /64', () => {
    expect(addressKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
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

describe("FallbackFailureStore (the dashboard's counters)", () => {
  it('counts in memory while the primary store fails, and warns once a minute', async () => {
    const broken: FailureStore = {
      attempt: () => Promise.reject(Object.assign(new Error('down'), { code: 'ECONNREFUSED' })),
    };
    const warn = jest.fn();
    const store = new FallbackFailureStore(broken, new MemoryFailureStore(), { warn }, 'dashboard sign-in');
    const counters = [{ name: 'ip:203.0.113.7', limit: 2 }];
    await expect(store.attempt(counters, true, 0, 1000)).resolves.toBe(0);
    await expect(store.attempt(counters, true, 0, 1000)).resolves.toBe(0);
    await expect(store.attempt(counters, false, 10, 1000)).resolves.toBe(990);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/^dashboard sign-in throttle: Redis unreachable \(ECONNREFUSED\)/);
    await store.attempt(counters, false, 60_000, 1000);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});
