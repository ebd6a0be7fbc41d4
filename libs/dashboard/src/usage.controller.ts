import { Controller, Get, Inject, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  ApiKeyStore,
  FileStore,
  isDashboardKey,
  monthOf,
  PLANS,
  UnitLedger,
  UsageHistoryStore,
} from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import { DASHBOARD_OPTIONS, type DashboardOptions } from './dashboard-options';
import { DashboardExceptionFilter, sendPage } from './dashboard-errors';
import type { DashboardRequest, SignedIn } from './dashboard-request';
import { Session, SignedInGuard } from './signed-in';
import { viewContext } from './views/layout';
import { usagePage } from './views/usage-page';

/** The first instant of the next usage month: the counter resets on the 1st, 00:00 UTC (SERVICE.md §8). */
export function nextReset(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * The dashboard's home: this month's units against the plan's quota (the units ledger's counter,
 * the same the API checks), the per-minute limit, test rows, the last 12 months, recent files.
 */
@ApiExcludeController()
@Controller('dashboard')
@UseFilters(DashboardExceptionFilter)
@UseGuards(SignedInGuard)
export class DashboardUsageController {
  constructor(
    @Inject(UnitLedger) private readonly ledger: UnitLedger,
    @Inject(UsageHistoryStore) private readonly history: UsageHistoryStore,
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(ApiKeyStore) private readonly apiKeys: ApiKeyStore,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  @Get()
  async home(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Session() session: SignedIn,
    @Query('welcome') welcome: unknown,
  ): Promise<void> {
    const now = this.clock.now();
    const month = monthOf(now);
    const org = session.organization;
    const [current, history, recent, keys] = await Promise.all([
      this.ledger.month(org.id, month),
      this.history.months(org.id, month, 12),
      this.files.listForOrganization(org.id, { page: 1, perPage: 5 }),
      this.apiKeys.listApiKeys(org.id),
    ]);
    const plan = PLANS[org.plan];
    sendPage(
      res,
      200,
      usagePage(viewContext(req), {
        welcome: welcome === '1',
        month,
        used: current.used,
        reserved: current.reserved,
        limit: plan.monthlyUnits,
        plan: org.plan,
        perMinute: plan.requestsPerMinute * this.options.rateLimitScale,
        testRows: current.testRows,
        testRowsLimit: this.options.testRowsPerMonth,
        resetAt: nextReset(now),
        history,
        recentFiles: recent.files,
        keys: new Map(keys.map((k) => [k.id, k])),
        // The API keys held: a person's dashboard key is none.
        activeKeys: keys.filter((k) => !k.revokedAt && !isDashboardKey(k)).length,
        baseUrl: this.options.publicBaseUrl,
        now,
      }),
    );
  }
}
