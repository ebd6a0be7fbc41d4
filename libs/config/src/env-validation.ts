import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import * as path from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import {
  Allow,
  IsIn,
  IsInt,
  IsOptional,
  Max,
  Min,
  ValidateBy,
  validateSync,
  type ValidationArguments,
} from 'class-validator';

/** A configuration mistake: the process refuses to start with a one-line explanation. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/*
 * Decorators of an environment class (class-validator + class-transformer). A variable is a string
 * or absent; an empty one counts as absent (its default applies). Each decorator gives one message
 * naming the variable, whatever constraint failed: the boot error reads as a list of settings to fix.
 * When a variable has several decorators, each passes when the matter is another's (a format check
 * passes when the variable is unset: EnvRequired names that), so the message is the right one
 * whatever order class-validator runs them in.
 */

type Decorator = PropertyDecorator;

function all(...decorators: PropertyDecorator[]): Decorator {
  return (target, key) => {
    for (const d of decorators) d(target, key);
  };
}

/** An integer from `min` to `max` (`Number()` of the text, as before: `0x10` is 16). */
export function EnvInt(min: number, max: number): Decorator {
  const message = `$property must be an integer from ${min} to ${max}`;
  return all(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value)),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
}

/** As EnvInt; unset stays undefined (the app picks a default that depends on the machine). */
export function OptionalEnvInt(min: number, max: number): Decorator {
  return all(IsOptional(), EnvInt(min, max));
}

/** true/false (also 1/0, yes/no), in any case. */
export function EnvBoolean(): Decorator {
  return all(
    Transform(({ value }: { value: unknown }) => {
      if (typeof value !== 'string') return value;
      const v = value.toLowerCase();
      return ['true', '1', 'yes'].includes(v) ? true : ['false', '0', 'no'].includes(v) ? false : value;
    }),
    ValidateBy(
      { name: 'envBoolean', validator: { validate: (v) => typeof v === 'boolean' } },
      {
        message: '$property must be true or false',
      },
    ),
  );
}

/** One of `allowed`, in any case (kept in lower case). */
export function EnvOneOf(allowed: readonly string[]): Decorator {
  return all(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value)),
    IsIn(allowed, { message: `$property must be one of ${allowed.join(', ')}` }),
  );
}

/** A string matching `pattern` when set; `problem` completes "X …" (`must be letters, …`). */
export function EnvMatches(pattern: RegExp, problem: string): Decorator {
  return ValidateBy(
    {
      name: 'envMatches',
      validator: { validate: (v) => v === undefined || (typeof v === 'string' && pattern.test(v)) },
    },
    { message: `$property ${problem}` },
  );
}

/**
 * A URL of one of `schemes` (`redis:`, `https:`…), read by WHATWG's parser — the one Node's clients
 * (pg, ioredis, fetch) use — rather than validator.js's isURL, which refuses some addresses those
 * clients take (a user without a password, `rediss://:pw@host`).
 */
export function EnvUrl(schemes: readonly string[], what: string): Decorator {
  return ValidateBy(
    {
      name: 'envUrl',
      validator: {
        validate: (v) =>
          v === undefined ||
          (typeof v === 'string' && URL.canParse(v) && schemes.includes(new URL(v).protocol)),
      },
    },
    { message: `$property must be ${what}` },
  );
}

/** A directory that exists (checked at boot, not when the first request needs it); made absolute. */
export function EnvDirectory(): Decorator {
  return all(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? path.resolve(value) : value)),
    IsOptional(),
    ValidateBy(
      {
        name: 'envDirectory',
        validator: {
          validate: (v) => typeof v === 'string' && existsSync(v) && statSync(v).isDirectory(),
        },
      },
      { message: '$property must be an existing directory' },
    ),
  );
}

/** Required: `message` says what to do when it is missing (an empty value is missing). */
export function EnvRequired(message: string): Decorator {
  return ValidateBy(
    { name: 'envRequired', validator: { validate: (v) => typeof v === 'string' && v !== '' } },
    { message: `$property is required${message}` },
  );
}

/**
 * Two variables that go together: both set, or neither. Put on the first; the second is `@Allow()`ed.
 */
export function EnvTogetherWith(other: string): Decorator {
  return ValidateBy(
    {
      name: 'envTogetherWith',
      validator: {
        validate: (v, args?: ValidationArguments) =>
          !v === !(args?.object as Record<string, unknown> | undefined)?.[other],
      },
    },
    { message: `$property and ${other} go together: set both or neither` },
  );
}

/** A rule between settings (`valid` reads the whole environment); its message is given whole. */
export function EnvRule<T extends object>(valid: (env: T) => boolean, message: string): Decorator {
  return ValidateBy(
    {
      name: 'envRule',
      validator: { validate: (_v, args?: ValidationArguments) => valid(args!.object as T) },
    },
    { message },
  );
}

/** Express `trust proxy`: off, every proxy, a number of hops, or a list of addresses, subnets and names. */
export type TrustProxy = boolean | number | string[];
const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustEntries(raw: string): string[] {
  return raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
}

function badTrustEntries(raw: string): string[] {
  const words = raw.trim().toLowerCase();
  if (['', 'false', 'off', 'true'].includes(words) || /^\d+$/.test(words)) return [];
  return trustEntries(raw).filter((e) => {
    if (TRUST_NAMES.has(e)) return false;
    const [address, bits, ...more] = e.split('/');
    if (more.length || !address || !isIP(address)) return true;
    return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
  });
}

/** TRUST_PROXY's text as Express takes it (the text was validated by EnvTrustProxy). */
export function trustProxyOf(raw: string | undefined): TrustProxy {
  const text = (raw ?? '').trim();
  if (text === '' || text.toLowerCase() === 'false' || text.toLowerCase() === 'off') return false;
  if (text.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return trustEntries(text);
}

/** Express's `trust proxy` syntax; the message names the entries it cannot take. */
export function EnvTrustProxy(): Decorator {
  return all(
    IsOptional(),
    ValidateBy({
      name: 'envTrustProxy',
      validator: {
        validate: (v) => typeof v === 'string' && badTrustEntries(v).length === 0,
        defaultMessage: (args?: ValidationArguments) =>
          `${args!.property} must be true, false, a number of hops, or addresses/subnets/loopback/linklocal/uniquelocal separated by commas (not: ${badTrustEntries(String(args!.value)).join(', ')})`,
      },
    }),
  );
}

/** Taken as it is (a free text, or the second of EnvTogetherWith). */
export const EnvText = (): Decorator => Allow();

/**
 * Reads an environment into `Environment` at boot, collecting every problem so that the error
 * names them all on one line: `invalid environment: A must be …; B and C go together: …`.
 * Variables the class does not declare are dropped (class-validator's whitelist).
 */
export function validateEnvironment<T extends object>(Environment: new () => T, env: NodeJS.ProcessEnv): T {
  const set: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value !== '') set[name] = value;
  const parsed = plainToInstance(Environment, set);
  const errors = validateSync(parsed, { whitelist: true, stopAtFirstError: true });
  // In the order the class declares its variables (a base class's first), not class-validator's.
  const order = Object.keys(new Environment());
  errors.sort((a, b) => order.indexOf(a.property) - order.indexOf(b.property));
  const problems = [...new Set(errors.flatMap((e) => Object.values(e.constraints ?? {})))];
  if (problems.length) throw new ConfigError(`invalid environment: ${problems.join('; ')}`);
  return parsed;
}
