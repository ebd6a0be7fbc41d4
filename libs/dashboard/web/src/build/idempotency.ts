/**
 * The Idempotency-Key of Generate, made from the content sent rather than drawn at random: the same
 * body with the same strict setting gives the same key — pressed twice, sent again after a reload of
 * the same file, or after switching the kind away and back — so the server answers with the file it
 * already made instead of making a second one. No random source is needed (crypto.randomUUID is
 * missing outside secure contexts, e.g. plain HTTP on a LAN host). The hash is not cryptographic: two
 * bodies sharing a key would be refused 409 IDEMPOTENCY_KEY_REUSED by the server, never given the
 * wrong file.
 */
import type { DeclarationBody } from '../engine/protocol';

/** JSON with every object's keys sorted: one text per content, whatever the order keys were set in. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/** A 128-bit hash of a string (cyrb128: four 32-bit lanes mixed with Math.imul), as 32 hex digits. */
export function hash128(text: string): string {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}

/** The key of one Generate: the body as sent and its strict_references setting. */
export function generateKey(body: DeclarationBody, strictReferences: boolean): string {
  return `build-${hash128(`${strictReferences ? 'strict' : 'lenient'}\n${canonicalJson(body)}`)}`;
}
