import type { INestApplication } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import { Metrics } from '@ppfile/infra';

export const METRICS_PATH = '/metrics';

/** Prometheus text at /metrics (API.md §13), behind the operator credentials like Bull Board. */
export function mountMetrics(app: INestApplication, operatorGate: RequestHandler): void {
  const metrics = app.get(Metrics);
  app.use(METRICS_PATH, operatorGate, (req: Request, res: Response) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.status(405).setHeader('Allow', 'GET, HEAD').type('text/plain').send('GET only.\n');
      return;
    }
    metrics.exposition().then(
      // end(), not send(): Express would rewrite the exposition's content type.
      ({ contentType, text }) => res.status(200).setHeader('Content-Type', contentType).end(text),
      () => res.status(500).type('text/plain').send('Metrics could not be collected.\n'),
    );
  });
}
