import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * once signed in to an account gets a cookie that says so, and its sign-ins to that account are then
 * throttled on their own (sign-in-throttle.ts) — strangers failing for the same e-mail address from
 * elsewhere cannot lock it out.
 *
 * One entry per account the browser signed in to, at most `MAX_DEVICE_ENTRIES` (a computer shared
 * by a few people of an office), newest first, joined by `_`:
 *
 *     <issued at, seconds, base 36>-<nonce, 16 random bytes, hex>-<HMAC-SHA256, first 16 bytes, hex>
 *
 * The HMAC covers the version, the time of issue, the nonce and the SHA-256 of the normalized
 * e-mail address: the cookie holds no address, is valid for one account only, cannot be forged or
 * moved to another account, and stops being valid a year after it was issued (a new sign-in issues
 * a new one). The nonce identifies the device for its failure counter.
 *
 * The key is derived with HKDF from PAYLOAD_ENCRYPTION_KEY, the gateway's one secret, under a label
 * of its own (no new setting; rotating that key makes every browser untrusted again — not locked
 * out: it signs in as any new browser does, and is trusted again after).
 */
export const DEVICE_LIFETIME_MS = 365 * 86_400_000;
export const MAX_DEVICE_ENTRIES = 5;
const NONCE_BYTES = 16;
const MAC_BYTES = 16;
const HKDF_INFO = 'ppfile dashboard device cookie v1';
const ENTRY = /^([0-9a-z]{1,10})-([0-9a-f]{32})-([0-9a-f]{32})$/;
/** A cookie longer than this is not one the gateway wrote. */
const MAX_COOKIE_LENGTH = MAX_DEVICE_ENTRIES * 80;

interface Entry {
  issuedSeconds: number;
  nonce: string;
  mac: string;
}

export class DeviceCookies {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    if (key.length < 32) throw new RangeError('device cookie key: 32 bytes at least');
  }

  /** The key derived from a secret of the gateway (HKDF-SHA256 with this purpose's label). */
  static fromSecret(secret: Buffer, now: () => number = Date.now): DeviceCookies {
    return new DeviceCookies(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), HKDF_INFO, 32)), now);
  }

  /**
   * The device of a sign-in attempt: an id for its failure counter when `cookie` holds a valid entry
   * for `email` (normalized), else null (an untrusted client).
   */
  deviceOf(cookie: string | undefined, email: string): string | null {
    const entry = this.entries(cookie).find((e) => this.validFor(e, email));
    return entry ? createHash('sha256').update(entry.nonce).digest('hex').slice(0, 32) : null;
  }

  /**
   * The cookie's new value after a successful sign-in to `email`: a fresh entry for it first, then
   * the browser's valid-looking entries for other accounts, at most MAX_DEVICE_ENTRIES in all.
   */
  issue(email: string, cookie?: string): string {
    const issuedSeconds = Math.floor(this.now() / 1000);
    const nonce = randomBytes(NONCE_BYTES).toString('hex');
    const fresh: Entry = { issuedSeconds, nonce, mac: this.mac(issuedSeconds, nonce, email) };
    const others = this.entries(cookie).filter((e) => !this.validFor(e, email));
    return [fresh, ...others]
      .slice(0, MAX_DEVICE_ENTRIES)
      .map((e) => `${e.issuedSeconds.toString(36)}-${e.nonce}-${e.mac}`)
      .join('_');
  }

  /** Well-formed entries within their lifetime (a malformed cookie is no cookie). */
  private entries(cookie: string | undefined): Entry[] {
    if (!cookie || cookie.length > MAX_COOKIE_LENGTH) return [];
    const nowMs = this.now();
    const out: Entry[] = [];
    for (const part of cookie.split('_').slice(0, MAX_DEVICE_ENTRIES)) {
      const m = ENTRY.exec(part);
      if (!m) continue;
      const issuedSeconds = parseInt(m[1]!, 36);
      const age = nowMs - issuedSeconds * 1000;
      // A minute of clock skew between replicas; anything issued "later" than that is not ours.
      if (age < -60_000 || age >= DEVICE_LIFETIME_MS) continue;
      out.push({ issuedSeconds, nonce: m[2]!, mac: m[3]! });
    }
    return out;
  }

  private validFor(entry: Entry, email: string): boolean {
    const expected = Buffer.from(this.mac(entry.issuedSeconds, entry.nonce, email), 'hex');
    return timingSafeEqual(expected, Buffer.from(entry.mac, 'hex'));
  }

  private mac(issuedSeconds: number, nonce: string, email: string): string {
    const emailDigest = createHash('sha256').update(email, 'utf8').digest('hex');
    return createHmac('sha256', this.key)
      .update(`v1\n${issuedSeconds}\n${nonce}\n${emailDigest}`)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('hex');
  }
}
