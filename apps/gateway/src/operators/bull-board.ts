import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { BullModule } from '@nestjs/bullmq';
import type { DynamicModule } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { QUEUE_NAMES, type QueueName } from '@ppfile/jobs';
import type { GatewayConfig } from '../config';
import { OPERATOR_GATE } from './operator-auth';

export const BULL_BOARD_PATH = '/admin/queues';

/** Bull Board's Express app, which would otherwise announce itself (X-Powered-By) again. */
class QuietExpressAdapter extends ExpressAdapter {
  constructor() {
    super();
    (this.getRouter() as { disable(setting: string): void }).disable('x-powered-by');
  }
}

/**
 * Bull Board at /admin/queues through its Nest module: every queue (libs/jobs QUEUES), behind the
 * operators' gate, read-only unless BULL_BOARD_WRITABLE. The queues the gateway does not add to
 * (`added`, registered by InfraModule) are registered here, for the board alone.
 */
export function bullBoardModules(config: GatewayConfig, added: readonly QueueName[]): DynamicModule[] {
  const shownOnly = QUEUE_NAMES.filter((name) => !added.includes(name));
  return [
    BullModule.registerQueue(...shownOnly.map((name) => ({ name }))),
    BullBoardModule.forRootAsync({
      useFactory: (gate: RequestHandler) => ({
        route: BULL_BOARD_PATH,
        adapter: QuietExpressAdapter,
        // No link to bull-board's documentation site: the page points nowhere outside the gateway.
        boardOptions: { uiConfig: { boardTitle: 'ppfile queues', hideDocsLink: true } },
        middleware: [gate, withoutExternalStylesheets],
      }),
      inject: [OPERATOR_GATE],
    }),
    BullBoardModule.forFeature(
      ...QUEUE_NAMES.map((name) => ({
        name,
        adapter: BullMQAdapter,
        options: { readOnlyMode: !config.bullBoardWritable },
      })),
    ),
  ];
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
