import { randomBytes } from 'node:crypto';
import { DEVICE_LIFETIME_MS, DeviceCookies, MAX_DEVICE_ENTRIES } from './device-cookies';

const SECRET = randomBytes(32);

function setup() {
  let now = Date.UTC(2026, 10, 1);
  const devices = DeviceCookies.fromSecret(SECRET, () => now);
  return { devices, advance: (ms: number) => (now += ms) };
}

describe('device cookies', () => {
  it('a cookie issued for an e-mail address names a device for that address only', () => {
    const { devices } = setup();
    const cookie = devices.issue('claire@example.org');
    expect(cookie).toMatch(/^[0-9a-z]+-[0-9a-f]{32}-[0-9a-f]{32}$/);
    expect(cookie).not.toContain('claire');
    const device = devices.deviceOf(cookie, 'claire@example.org');
    expect(device).toMatch(/^[0-9a-f]{32}$/);
    expect(devices.deviceOf(cookie, 'paul@example.org')).toBeNull();
    // Each sign-in a new nonce: another device id.
    expect(devices.deviceOf(devices.issue('claire@example.org'), 'claire@example.org')).not.toBe(device);
  });

  it('refuses a forged, altered or foreign cookie, and nothing is no device', () => {
    const { devices } = setup();
    const cookie = devices.issue('claire@example.org');
    const [t, nonce, mac] = cookie.split('-') as [string, string, string];
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    for (const bad of [
      `${t}-${flip(nonce)}-${mac}`,
      `${t}-${nonce}-${flip(mac)}`,
      `${(parseInt(t, 36) - 1).toString(36)}-${nonce}-${mac}`,
      `${t}-${nonce}-${'0'.repeat(32)}`,
      'garbage',
      '',
      `${cookie}_`.repeat(20),
    ])
      expect(devices.deviceOf(bad, 'claire@example.org')).toBeNull();
    expect(devices.deviceOf(undefined, 'claire@example.org')).toBeNull();
    // Another gateway secret: not ours.
    const other = DeviceCookies.fromSecret(randomBytes(32));
    expect(other.deviceOf(cookie, 'claire@example.org')).toBeNull();
  });

  it('is valid for a year from its issue, not after', () => {
    const { devices, advance } = setup();
    const cookie = devices.issue('claire@example.org');
    advance(DEVICE_LIFETIME_MS - 1000);
    expect(devices.deviceOf(cookie, 'claire@example.org')).not.toBeNull();
    advance(1000);
    expect(devices.deviceOf(cookie, 'claire@example.org')).toBeNull();
  });

  it('keeps one entry per account the browser signed in to, newest first, at most 5', () => {
    const { devices } = setup();
    let cookie: string | undefined;
    const emails = Array.from({ length: MAX_DEVICE_ENTRIES + 1 }, (_, i) => `person${i}@example.org`);
    for (const email of emails) cookie = devices.issue(email, cookie);
    expect(cookie!.split('_')).toHaveLength(MAX_DEVICE_ENTRIES);
    expect(devices.deviceOf(cookie, emails[0]!)).toBeNull();
    for (const email of emails.slice(1)) expect(devices.deviceOf(cookie, email)).not.toBeNull();
    // Signing in again to an account replaces its entry (a new device id), keeps the others.
    const before = devices.deviceOf(cookie, emails[3]!);
    const again = devices.issue(emails[3]!, cookie);
    expect(again.split('_')).toHaveLength(MAX_DEVICE_ENTRIES);
    expect(devices.deviceOf(again, emails[3]!)).not.toBe(before);
    expect(devices.deviceOf(again, emails[5]!)).toBe(devices.deviceOf(cookie, emails[5]!));
    // A cookie always fits the header's safe set.
    expect(again).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('derives its key from the gateway secret; refuses a short key', () => {
    expect(() => new DeviceCookies(Buffer.alloc(16))).toThrow(RangeError);
    const a = DeviceCookies.fromSecret(SECRET).issue('x@example.org');
    expect(DeviceCookies.fromSecret(SECRET).deviceOf(a, 'x@example.org')).not.toBeNull();
  });
});
