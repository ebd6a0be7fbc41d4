import { usageError } from './cli-io';
import type { Values } from './invocation';

/**
 * An option's value as a command reads it, once the command line is parsed (args.ts): each refusal
 * a catalogue entry, worded in the caller's language.
 */

export function oneOf<T extends string>(
  name: string,
  value: string | boolean | undefined,
  allowed: readonly T[],
): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw usageError('expects_one_of', { option: name, values: allowed.join(' | ') });
  }
  return value as T;
}

export function requiredString(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw usageError('required', { option: name });
  return value;
}

/** A positive whole number of rows, or no limit when absent. */
export function maxRowsOption(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rows = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(rows) || rows < 1) throw usageError('expects_max_rows');
  return rows;
}
