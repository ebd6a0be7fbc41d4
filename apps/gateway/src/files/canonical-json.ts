import { createHash } from 'node:crypto';

/**
 * Hash of a JSON body that does not depend on key order or whitespace: the "same body" of an
 * idempotent retry (SERVICE.md §4.2) is the same data, however the client serialises it.
 */
export function bodyHash(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
