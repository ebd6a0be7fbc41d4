import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { BasicCredentials, HealthChecks, Metrics, readinessAnswer } from '@ppfile/infra';
import { WORKER_CONFIG, type WorkerConfig } from './config';

/**
 * The worker's small HTTP port (WORKER_HTTP_PORT, API.md §13): `/health/live` (the process runs),
 * `/health/ready` (PostgreSQL, Redis and the object store answer; else 503 naming the ones down),
 * for the probes of an orchestrator, and `/metrics` (Prometheus text, behind the operator
 * credentials) for its scraper. No API here; the port is meant for the cluster's network, not the
 * internet. /metrics is not throttled like the gateway's operator pages: OPERATOR_PASSWORD is meant
 * to be long and random, and the port is not published (one-line reason, docs/architecture.md).
 */
@Injectable()
export class HealthServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('health');
  private server: Server | null = null;
  private readonly credentials: BasicCredentials | null;

  constructor(
    @Inject(HealthChecks) private readonly checks: HealthChecks,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {
    this.credentials = config.operator ? new BasicCredentials(config.operator) : null;
  }

  /** The port actually bound (WORKER_HTTP_PORT=0 picks a free one). */
  get port(): number | null {
    return this.server ? (this.server.address() as AddressInfo).port : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = createServer((req, res) => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          ...headers,
        });
        res.end(JSON.stringify(body));
      };
      const url = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET') return send(405, { status: 'method not allowed' });
      if (url === '/metrics') {
        // Behind the operator credentials, as the gateway's (issue 19: the port listens on every
        // interface for the orchestrator's probes, and the metrics name queues and volumes).
        if (!this.credentials)
          return send(404, { status: 'metrics are disabled: set OPERATOR_USER and OPERATOR_PASSWORD' });
        if (!this.credentials.check(req.headers.authorization).ok)
          return send(
            401,
            { status: 'operator credentials required' },
            { 'www-authenticate': 'Basic realm="ppfile operators", charset="UTF-8"' },
          );
        void this.metrics.exposition().then(
          ({ contentType, text }) => {
            res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
            res.end(text);
          },
          () => send(500, { status: 'metrics could not be collected' }),
        );
        return;
      }
      if (url === '/health/live') return send(200, { status: 'ok' });
      if (url === '/health/ready') {
        void this.checks.readiness().then((r) => {
          const answer = readinessAnswer(r);
          send(answer.status, answer.body, answer.headers);
        });
        return;
      }
      send(404, { status: 'not found' });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.httpPort, '0.0.0.0', () => resolve());
    });
    this.server = server;
    this.logger.log(`health on port ${this.port} (/health/live, /health/ready, /metrics)`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server?.closeAllConnections?.();
  }
}
