import type { INestApplication } from '@nestjs/common';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NextFunction, Request, Response } from 'express';
import type { GatewayConfig } from '../config';
import { JobQueue } from '@ppfile/infra';
import type { RequestHandler } from 'express';

export const BULL_BOARD_PATH = '/admin/queues';

/** Bull Board at /admin/queues, behind operator authentication; read-only unless BULL_BOARD_WRITABLE. */
export function mountBullBoard(
  app: INestApplication,
  config: GatewayConfig,
  operatorGate: RequestHandler,
): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(app.get(JobQueue).queue, { readOnlyMode: !config.bullBoardWritable })],
    serverAdapter,
    // No link to bull-board's documentation site: the page points nowhere outside the gateway.
    options: { uiConfig: { boardTitle: 'ppfile queues', hideDocsLink: true } },
  });
  const router = serverAdapter.getRouter() as { disable(setting: string): void };
  // Bull Board is an express app of its own: it would announce itself again.
  router.disable('x-powered-by');
  app.use(BULL_BOARD_PATH, operatorGate, withoutExternalStylesheets, router);
}

/** A <link> to a stylesheet (or any resource) on another origin. */
const EXTERNAL_LINK = /<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\/[^>]*>\s*/gi;

/**
 * Bull Board's page links Google Fonts, and no uiConfig option turns that off. The CSP
 * (common/security-headers.ts) would block the request; this takes the link out of the HTML so that
 * the browser does not even try (and logs no violation). Its CSS falls back to the system fonts.
 */
export function withoutExternalStylesheets(_req: Request, res: Response, next: NextFunction): void {
  const render = res.render.bind(res) as (
    view: string,
    options: object,
    done: (err: Error | null, html?: string) => void,
  ) => void;
  res.render = (view: string, options?: object) => {
    render(view, options ?? {}, (err, html) => {
      if (err || html === undefined) {
        res.status(500).type('text/plain').send('Bull Board could not be rendered.\n');
        return;
      }
      res.type('html').send(html.replace(EXTERNAL_LINK, ''));
    });
  };
  next();
}
