import { Controller, Get, Inject, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '@ppfile/infra';
import { formatIsoDate, parisDay } from '@ppfile/rules';
import { WebAssets } from './assets/web-assets';
import { DashboardExceptionFilter, sendPage } from './dashboard-errors';
import type { DashboardRequest, SignedIn } from './dashboard-request';
import { Session, SignedInGuard } from './signed-in';
import { viewContext } from './views/layout';
import { tryPage } from './views/try-page';

/**
 * Try it (issue 36): the page's shell. The file is read and checked in the browser, by the engine
 * worker (libs/dashboard/web: libs/rules with the lists the API uses, a live key's limits, the
 * server's Paris day given here); nothing of it is ever sent — there is no upload route.
 */
@ApiExcludeController()
@Controller('dashboard/try')
@UseFilters(DashboardExceptionFilter)
@UseGuards(SignedInGuard)
export class DashboardTryController {
  constructor(
    @Inject(WebAssets) private readonly web: WebAssets,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  @Get()
  page(@Req() req: DashboardRequest, @Res() res: Response, @Session() _session: SignedIn): void {
    const ctx = viewContext(req);
    // Not built (`npm run build:web` before the start): the form, and the page saying why it cannot check.
    if (!this.web.built) {
      res.locals.errorCode = 'SERVICE_UNAVAILABLE';
      return sendPage(res, 503, tryPage(ctx, { form: DEFAULT_FORM, missingBundle: true }));
    }
    const urls = this.web.urls();
    sendPage(
      res,
      200,
      tryPage(ctx, {
        form: DEFAULT_FORM,
        app: {
          script: urls.tryJs,
          config: {
            lang: ctx.lang,
            today: formatIsoDate(parisDay(this.clock.now())),
            workerUrl: urls.worker,
            listsUrl: urls.lists,
          },
        },
      }),
    );
  }
}

const DEFAULT_FORM = { type: 'adf', declarant: 'training_organization', strict: true };
