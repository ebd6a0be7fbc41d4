import { spawn, type ChildProcess } from 'node:child_process';
import type { Gateway } from './gateway';
import { suiteLogs } from './logs';
import { freePort, stopGroup } from './stack';
import { assertBuilt, GATEWAY_MAIN } from './worker';

/**
 * The built gateway (`npm run start:gateway`) as a process of its own, on the services of a test
 * gateway (same database, Redis, bucket and queue prefix): for what only a real process shows — that
 * it is still alive after an input, its rules threads, its memory. Its log lines go through the
 * suite's audit (JSON only, no personal data).
 */
export class GatewayProcess {
  private child: ChildProcess | null = null;
  private output = '';
  port = 0;

  constructor(
    private readonly gw: Gateway,
    private readonly env: Record<string, string> = {},
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child!.pid!;
  }

  /** Whether the process is still running (it has not exited, whatever the reason). */
  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** What it wrote on standard output and error. */
  get log(): string {
    return this.output;
  }

  async start(): Promise<void> {
    assertBuilt('gateway', GATEWAY_MAIN);
    this.port = await freePort();
    const c = this.gw.config;
    this.child = spawn(process.execPath, [GATEWAY_MAIN], {
      env: {
        ...process.env,
        PORT: String(this.port),
        DATABASE_URL: c.databaseUrl,
        REDIS_URL: c.redisUrl,
        S3_ENDPOINT: c.s3.endpoint,
        S3_ACCESS_KEY: c.s3.accessKey,
        S3_SECRET_KEY: c.s3.secretKey,
        S3_BUCKET: c.s3.bucket,
        PAYLOAD_ENCRYPTION_KEY: c.payloadEncryptionKey.toString('base64'),
        QUEUE_PREFIX: c.queue.prefix,
        OPERATOR_USER: c.operator!.user,
        OPERATOR_PASSWORD: c.operator!.password,
        AUTH_CACHE_SECONDS: '0',
        SHUTDOWN_GRACE_SECONDS: '3',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const keep = (d: Buffer) => {
      this.output += d.toString();
      suiteLogs.feed(d);
    };
    this.child.stdout!.on('data', keep);
    this.child.stderr!.on('data', keep);
    const deadline = Date.now() + 30_000;
    while (!this.output.includes('gateway listening')) {
      if (!this.alive) throw new Error(`the gateway exited at start:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`the gateway did not start in 30 s:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The value of one series of its /metrics (operator credentials), or null when absent. */
  async metric(series: string): Promise<number | null> {
    const c = this.gw.config.operator!;
    const res = await fetch(`${this.url}/metrics`, {
      headers: { Authorization: `Basic ${Buffer.from(`${c.user}:${c.password}`).toString('base64')}` },
    });
    for (const line of (await res.text()).split('\n'))
      if (line.startsWith(`${series} `)) return Number(line.slice(series.length + 1));
    return null;
  }

  /** SIGKILL to its process group: it dies where it stands, nothing of its shutdown runs. */
  async kill(): Promise<void> {
    if (this.child && this.alive) await stopGroup(this.child, 'SIGKILL');
    this.child = null;
  }

  async stop(): Promise<void> {
    if (this.child && this.alive) await stopGroup(this.child, 'SIGTERM');
    this.child = null;
  }
}
