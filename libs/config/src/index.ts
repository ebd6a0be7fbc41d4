import * as path from 'node:path';

/** A configuration mistake: the process refuses to start with a one-line explanation. */
export class ConfigError extends Error {}

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
}

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

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) this.problems.push(`${name} must be an integer from ${min} to ${max}`);
    return n;
  }

  /** The object store (S3_*): path-style, an endpoint with its credentials. */
  s3(): ServicesConfig['s3'] {
    const endpoint = this.env.S3_ENDPOINT ?? '';
    if (!endpoint) this.problems.push('S3_ENDPOINT is required (npm start starts a local S3 endpoint when it is unset)');
    else if (!/^https?:\/\/[^/]+\/?$/.test(endpoint)) this.problems.push('S3_ENDPOINT must look like http(s)://host[:port]');
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
      databaseUrl: this.string('DATABASE_URL', 'postgresql://postgres@127.0.0.1:5432/ppfile'),
      redisUrl: this.string('REDIS_URL', 'redis://127.0.0.1:6379'),
      s3: this.s3(),
      referenceDataDir: this.env.PPFILE_REFERENCE_DATA ? path.resolve(this.env.PPFILE_REFERENCE_DATA) : null,
      // The prefix of every Redis key of the service: the same for the gateways and workers sharing a Redis.
      queuePrefix: this.string('QUEUE_PREFIX', 'bull'),
      payloadEncryptionKey: this.payloadKey(),
      processingLeaseSeconds: this.int('PROCESSING_LEASE_SECONDS', 600, 1, 7 * 86400),
      shutdownGraceSeconds: this.int('SHUTDOWN_GRACE_SECONDS', 25, 0, 3600),
    };
  }

  private payloadKey(): Buffer {
    const raw = this.env.PAYLOAD_ENCRYPTION_KEY ?? '';
    const key = Buffer.from(raw, 'base64');
    if (!raw) this.problems.push('PAYLOAD_ENCRYPTION_KEY is required (32 bytes, base64; `npm start` makes a local one)');
    else if (key.length !== 32) this.problems.push('PAYLOAD_ENCRYPTION_KEY must be 32 bytes encoded in base64 (e.g. `openssl rand -base64 32`)');
    return key;
  }

  /** Throws ConfigError naming every problem found. */
  done(): void {
    if (this.problems.length) throw new ConfigError(`invalid environment: ${this.problems.join('; ')}`);
  }
}
