import { existsSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import * as path from 'node:path';

/** A configuration mistake: the process refuses to start with a one-line explanation. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** What every ppfile process shares (API.md §13): database, Redis, object storage, reference data, queue prefix. */
export interface ServicesConfig {
  databaseUrl: string;
  redisUrl: string;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  referenceDataDir: string | null;
  queuePrefix: string;
  /** AES-256-GCM key of the request bodies kept until their job ends (PAYLOAD_ENCRYPTION_KEY, 32 bytes base64). */
  payloadEncryptionKey: Buffer;
  /** A file processing this long after its last sign of life is resumed or ends failed (PROCESSING_LEASE_SECONDS). */
  processingLeaseSeconds: number;
  /** How long SIGTERM waits for the requests or jobs in flight (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  /** Lowest level of the JSON log lines (LOG_LEVEL). */
  logLevel: LogLevelName;
}

export const LOG_LEVEL_NAMES = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

/** Express `trust proxy`: off, every proxy, a number of hops, or a list of addresses, subnets and names. */
export type TrustProxy = boolean | number | string[];
const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Reads an environment once, at boot, collecting every problem so that the error names them all.
 * Each app's config.ts builds its own validated schema with it; nothing else reads process.env.
 */
export class EnvReader {
  private readonly problems: string[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  string(name: string, fallback = ''): string {
    return this.env[name] || fallback;
  }

  /** One of `allowed` (case-insensitive). */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = raw.toLowerCase() as T;
    if (!allowed.includes(value)) this.problems.push(`${name} must be one of ${allowed.join(', ')}`);
    return allowed.includes(value) ? value : fallback;
  }

  /** true/false (also 1/0, yes/no). */
  bool(name: string, fallback: boolean): boolean {
    const raw = (this.env[name] ?? '').toLowerCase();
    if (raw === '') return fallback;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false`);
    return fallback;
  }

  /** Two variables that go together: both set, or neither (then null). */
  pair(a: string, b: string): [string, string] | null {
    const x = this.env[a] ?? '';
    const y = this.env[b] ?? '';
    if (!x && !y) return null;
    if (!x || !y) {
      this.problems.push(`${a} and ${b} go together: set both or neither`);
      return null;
    }
    return [x, y];
  }

  /** TRUST_PROXY in Express's `trust proxy` syntax; off by default (X-Forwarded-For ignored). */
  trustProxy(name = 'TRUST_PROXY'): TrustProxy {
    const raw = (this.env[name] ?? '').trim();
    if (raw === '' || raw.toLowerCase() === 'false' || raw.toLowerCase() === 'off') return false;
    if (raw.toLowerCase() === 'true') return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    const entries = raw
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => {
      if (TRUST_NAMES.has(e)) return false;
      const [address, bits, ...more] = e.split('/');
      if (more.length || !address || !isIP(address)) return true;
      return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128));
    });
    if (bad.length) {
      this.problems.push(
        `${name} must be true, false, a number of hops, or addresses/subnets/loopback/linklocal/uniquelocal separated by commas (not: ${bad.join(', ')})`,
      );
    }
    return entries;
  }

  /** A string that must match `pattern`. */
  matching(name: string, fallback: string, pattern: RegExp, what: string): string {
    const value = this.string(name, fallback);
    if (!pattern.test(value)) this.problems.push(`${name} must be ${what}`);
    return value;
  }

  /** A Redis URL: redis:// or rediss:// (TLS). */
  redisUrl(name: string, fallback: string): string {
    return this.url(name, fallback, ['redis:', 'rediss:'], 'a redis:// or rediss:// URL');
  }

  /** An http:// or https:// URL (a public address), without its trailing slashes. */
  httpUrl(name: string, fallback: string): string {
    return this.url(name, fallback, ['http:', 'https:'], 'an http:// or https:// URL').replace(/\/+$/, '');
  }

  /** A directory that must exist (checked at boot, not when the first request needs it). */
  directory(name: string): string | null {
    const raw = this.env[name];
    if (!raw) return null;
    const dir = path.resolve(raw);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      this.problems.push(`${name} must be an existing directory`);
    return dir;
  }

  /** A PostgreSQL URL. */
  postgresUrl(name: string, fallback: string): string {
    return this.url(name, fallback, ['postgresql:', 'postgres:'], 'a postgresql:// URL');
  }

  private url(name: string, fallback: string, schemes: string[], what: string): string {
    const raw = this.string(name, fallback);
    if (!URL.canParse(raw) || !schemes.includes(new URL(raw).protocol))
      this.problems.push(`${name} must be ${what}`);
    return raw;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      this.problems.push(`${name} must be an integer from ${min} to ${max}`);
    return n;
  }

  /** The object store (S3_*): path-style, an endpoint with its credentials. */
  s3(): ServicesConfig['s3'] {
    const endpoint = this.env.S3_ENDPOINT ?? '';
    if (!endpoint)
      this.problems.push('S3_ENDPOINT is required (npm start starts a local S3 endpoint when it is unset)');
    else if (!/^https?:\/\/[^/]+\/?$/.test(endpoint))
      this.problems.push('S3_ENDPOINT must look like http(s)://host[:port]');
    if (endpoint && (!this.env.S3_ACCESS_KEY || !this.env.S3_SECRET_KEY)) {
      this.problems.push('S3_ACCESS_KEY and S3_SECRET_KEY are required');
    }
    return {
      endpoint,
      accessKey: this.string('S3_ACCESS_KEY'),
      secretKey: this.string('S3_SECRET_KEY'),
      bucket: this.string('S3_BUCKET', 'ppfile'),
      region: this.string('S3_REGION', 'us-east-1'),
    };
  }

  services(): ServicesConfig {
    return {
      databaseUrl: this.postgresUrl('DATABASE_URL', 'postgresql://postgres@127.0.0.1:5432/ppfile'),
      redisUrl: this.redisUrl('REDIS_URL', 'redis://127.0.0.1:6379'),
      s3: this.s3(),
      referenceDataDir: this.directory('PPFILE_REFERENCE_DATA'),
      // The prefix of every Redis key of the service: the same for the gateways and workers sharing a Redis.
      queuePrefix: this.matching(
        'QUEUE_PREFIX',
        'bull',
        /^[A-Za-z0-9._-]{1,64}$/,
        'letters, digits, ".", "_" or "-" (at most 64)',
      ),
      payloadEncryptionKey: this.payloadKey(),
      processingLeaseSeconds: this.int('PROCESSING_LEASE_SECONDS', 600, 1, 7 * 86400),
      shutdownGraceSeconds: this.int('SHUTDOWN_GRACE_SECONDS', 25, 0, 3600),
      logLevel: this.oneOf('LOG_LEVEL', LOG_LEVEL_NAMES, 'info'),
    };
  }

  private payloadKey(): Buffer {
    const raw = this.env.PAYLOAD_ENCRYPTION_KEY ?? '';
    const key = Buffer.from(raw, 'base64');
    if (!raw)
      this.problems.push(
        'PAYLOAD_ENCRYPTION_KEY is required (32 bytes, base64; `npm start` makes a local one)',
      );
    else if (key.length !== 32)
      this.problems.push(
        'PAYLOAD_ENCRYPTION_KEY must be 32 bytes encoded in base64 (e.g. `openssl rand -base64 32`)',
      );
    return key;
  }

  /** A problem found by the app's own checks (two settings that contradict each other). */
  problem(text: string): void {
    this.problems.push(text);
  }

  /** Throws ConfigError naming every problem found. */
  done(): void {
    if (this.problems.length) throw new ConfigError(`invalid environment: ${this.problems.join('; ')}`);
  }
}
