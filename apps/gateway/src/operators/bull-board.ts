import type { INestApplication } from '@nestjs/common';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { GatewayConfig } from '../config';
import { JobQueue } from '@ppfile/infra';
import { operatorAuth } from './operator-auth';

export const BULL_BOARD_PATH = '/admin/queues';

/** Bull Board at /admin/queues, behind operator authentication; read-only unless BULL_BOARD_WRITABLE. */
export function mountBullBoard(app: INestApplication, config: GatewayConfig): void {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(app.get(JobQueue).queue, { readOnlyMode: !config.bullBoardWritable })],
    serverAdapter,
    options: { uiConfig: { boardTitle: 'ppfile queues' } },
  });
  app.use(BULL_BOARD_PATH, operatorAuth(config.operator), serverAdapter.getRouter());
}
