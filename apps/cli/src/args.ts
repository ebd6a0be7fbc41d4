import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseIsoDate, pickLang, type DayNumber, type Lang } from '@ppfile/rules';
import { UsageError } from './cli-io';

export type Options = NonNullable<ParseArgsConfig['options']>;

export function parse(
  args: string[],
  options: Options,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function todayOption(value: string | boolean | undefined): DayNumber | undefined {
  if (value === undefined) return undefined;
  const day = typeof value === 'string' ? parseIsoDate(value) : null;
  if (day === null) throw new UsageError('--today expects a date YYYY-MM-DD');
  return day;
}

export function langOption(value: string | boolean | undefined): Lang {
  if (value === undefined) return 'en';
  if (value !== 'en' && value !== 'fr') throw new UsageError('--lang expects en or fr');
  return pickLang(value);
}

export function oneOf<T extends string>(
  name: string,
  value: string | boolean | undefined,
  allowed: readonly T[],
): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw new UsageError(`--${name} expects ${allowed.join(' | ')}`);
  }
  return value as T;
}

export function single(positionals: string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected exactly one ${what}`);
  return positionals[0]!;
}
