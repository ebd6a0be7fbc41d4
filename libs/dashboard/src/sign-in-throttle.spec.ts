import { FallbackFailureStore, MemoryFailureStore, type FailureStore } from '@ppfile/infra';
import { SIGN_IN_LIMITS, SignInThrottle, type SignInClient } from './sign-in-throttle';

const EMAIL = 'claire@example.org';

function setup(store: FailureStore = new MemoryFailureStore()) {
  let now = Date.UTC(2026, 10, 1);
  const throttle = new SignInThrottle(store, () => now);
  return { throttle, advance: (ms: number) => (now += ms) };
}

const untrusted = (address: string, email = EMAIL): SignInClient => ({ address, email, device: null });
const trusted = (device: string, address = '203.0.113.250', email = EMAIL): SignInClient => ({
  address,
  email,
  device,
});

describe('SignInThrottle', () => {
  it('the limits: 5 per device, 5 per address and e-mail, 10 per e-mail, 20 per address, in 15 minutes', () => {
    expect(SIGN_IN_LIMITS).toEqual({
      windowMs: 15 * 60_000,
      perDevice: 5,
      perAddressAndEmail: 5,
      perEmail: 10,
      perAddress: 20,
    });
  });

  it('strangers failing from 10 addresses lock out untrusted clients of the e-mail, not a known browser', async () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 10; i++)
      await expect(throttle.attempt(untrusted(`198.51.100.${i}`), true)).resolves.toEqual({ allowed: true });
    // A new browser, even with the right password: refused for what remains of the window.
    await expect(throttle.attempt(untrusted('192.0.2.1'), false)).resolves.toEqual({
      allowed: false,
      retryAfterSeconds: 900,
    });
    // The person's own browser (a valid device cookie): not affected, from any address.
    await expect(throttle.attempt(trusted('dev-a', '198.51.100.1'), false)).resolves.toEqual({
      allowed: true,
    });
    await expect(throttle.attempt(trusted('dev-a'), false)).resolves.toEqual({ allowed: true });
    // Another account is not affected.
    await expect(throttle.attempt(untrusted('192.0.2.1', 'paul@example.org'), false)).resolves.toEqual({
      allowed: true,
    });
    advance(15 * 60_000);
    await expect(throttle.attempt(untrusted('192.0.2.1'), false)).resolves.toEqual({ allowed: true });
  });

  it('a device cookie failing 5 times is locked for the window; other devices and untrusted clients are not', async () => {
    const { throttle, advance } = setup();
    for (let i = 0; i < 5; i++) {
      await expect(throttle.attempt(trusted('dev-a'), true)).resolves.toEqual({ allowed: true });
      advance(1000);
    }
    await expect(throttle.attempt(trusted('dev-a'), false)).resolves.toEqual({
      allowed: false,
      retryAfterSeconds: 895,
    });
    await expect(throttle.attempt(trusted('dev-b'), false)).resolves.toEqual({ allowed: true });
    // The device's failures are its own: they counted under no e-mail or address counter.
    await expect(throttle.attempt(untrusted('203.0.113.250'), false)).resolves.toEqual({ allowed: true });
    advance(895_000);
    await expect(throttle.attempt(trusted('dev-a'), false)).resolves.toEqual({ allowed: true });
  });

  it('one untrusted client guessing one account: 5 failures; then other addresses still get the rest', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 5; i++) await throttle.attempt(untrusted('203.0.113.7'), true);
    await expect(throttle.attempt(untrusted('203.0.113.7'), false)).resolves.toMatchObject({
      allowed: false,
    });
    // The same address, another account: allowed (15 failures left on the address).
    await expect(throttle.attempt(untrusted('203.0.113.7', 'paul@example.org'), false)).resolves.toEqual({
      allowed: true,
    });
    // Another address, the same account: allowed (5 failures left on the e-mail).
    await expect(throttle.attempt(untrusted('203.0.113.8'), false)).resolves.toEqual({ allowed: true });
  });

  it('one address trying many accounts: 20 failures, then every e-mail from it is refused', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 20; i++)
      await expect(throttle.attempt(untrusted('192.0.2.50', `p${i}@example.org`), true)).resolves.toEqual({
        allowed: true,
      });
    await expect(throttle.attempt(untrusted('192.0.2.50', 'new@example.org'), false)).resolves.toMatchObject({
      allowed: false,
    });
    // A known browser behind that address (an office's) still signs in.
    await expect(throttle.attempt(trusted('dev-office', '192.0.2.50'), false)).resolves.toEqual({
      allowed: true,
    });
  });

  it('concurrent guesses cannot pass a limit', async () => {
    const { throttle } = setup();
    const device = await Promise.all(Array.from({ length: 30 }, () => throttle.attempt(trusted('d'), true)));
    expect(device.filter((v) => v.allowed)).toHaveLength(5);
    const spread = await Promise.all(
      Array.from({ length: 30 }, (_, i) => throttle.attempt(untrusted(`198.51.100.${i}`), true)),
    );
    expect(spread.filter((v) => v.allowed)).toHaveLength(10);
  });

  it('counts in memory while its store fails', async () => {
    const broken: FailureStore = { attempt: () => Promise.reject(new Error('down')) };
    const warn = jest.fn();
    const { throttle } = setup(
      new FallbackFailureStore(broken, new MemoryFailureStore(), { warn }, 'dashboard sign-in'),
    );
    for (let i = 0; i < 5; i++) await throttle.attempt(trusted('d'), true);
    await expect(throttle.attempt(trusted('d'), false)).resolves.toMatchObject({ allowed: false });
    expect(warn.mock.calls[0][0]).toMatch(/^dashboard sign-in throttle: Redis unreachable/);
  });
});
