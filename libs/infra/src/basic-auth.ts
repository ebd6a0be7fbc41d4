import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * HTTP Basic credentials of the operators (OPERATOR_USER / OPERATOR_PASSWORD), for the gateway's
 * operator pages and both processes' /metrics: the expected pair is kept as a digest and compared
 * as fixed-length digests, in constant time.
 */
export class BasicCredentials {
  private readonly expected: Buffer;

  constructor(operator: { user: string; password: string }) {
    this.expected = digest(`${operator.user}:${operator.password}`);
  }

  /** The header's user name (null when there is no well-formed `Basic` header) and whether the pair matches. */
  check(header: string | undefined): { user: string | null; ok: boolean } {
    const credentials = header === undefined ? null : parseBasic(header);
    if (!credentials) return { user: null, ok: false };
    return { user: credentials.user, ok: timingSafeEqual(digest(credentials.decoded), this.expected) };
  }
}

/** `Basic <base64 of user:password>` → the decoded pair and its user name; null when malformed. */
function parseBasic(header: string): { decoded: string; user: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return { decoded, user: colon >= 0 ? decoded.slice(0, colon) : decoded };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
