import {
  Controller,
  Get,
  Inject,
  Logger,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_KEY_ID } from '@ppfile/contract';
import { ApiKeyStore, isDashboardKey, type ApiKeyInfo } from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import { DASHBOARD_OPTIONS, type DashboardOptions } from './dashboard-options';
import { DashboardExceptionFilter, DashboardNotFound, redirect, sendPage } from './dashboard-errors';
import type { DashboardRequest, SignedIn } from './dashboard-request';
import { KeyForm, readPageForm } from './forms';
import { FormSession, Session, SignedInGuard } from './signed-in';
import { createdKeyPage, keysPage, keyTitle, revokeConfirmPage } from './views/keys-pages';
import { viewContext } from './views/layout';

const logger = new Logger('dashboard');

export { cleanKeyName } from './forms';

/**
 * The organization's API keys through libs/db's ApiKeyStore: list, create (the secret is in the
 * answer to the POST only — never stored, never shown again; the page is not cached), revoke with
 * a confirmation. Another organization's key id answers 404.
 */
@ApiExcludeController()
@Controller('dashboard/keys')
@UseFilters(DashboardExceptionFilter)
@UseGuards(SignedInGuard)
export class DashboardKeysController {
  constructor(
    @Inject(ApiKeyStore) private readonly apiKeys: ApiKeyStore,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  @Get()
  async list(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Session() session: SignedIn,
    @Query('revoked') revoked: unknown,
  ): Promise<void> {
    const keys = await this.apiKeysOf(session);
    const ctx = viewContext(req);
    const gone = typeof revoked === 'string' ? keys.find((k) => k.id === revoked && k.revokedAt) : undefined;
    sendPage(
      res,
      200,
      keysPage(ctx, {
        keys,
        now: this.clock.now(),
        notice: gone ? ctx.t.keys.revoked(keyTitle(gone)) : undefined,
      }),
    );
  }

  @Post()
  async create(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @FormSession() session: SignedIn,
  ): Promise<void> {
    const ctx = viewContext(req);
    const { form, problems } = readPageForm(KeyForm, req.body, ctx.t, ctx.lang);
    const { name, mode } = form;
    if (problems.length) {
      const keys = await this.apiKeysOf(session);
      res.locals.errorCode = 'INVALID_REQUEST';
      return sendPage(
        res,
        400,
        keysPage(ctx, {
          keys,
          now: this.clock.now(),
          error: problems[0],
          form: { name, mode: mode === 'live' ? 'live' : 'test' },
        }),
      );
    }
    const created = await this.apiKeys.createApiKey({
      organizationId: session.organization.id,
      mode,
      name: name || null,
    });
    logger.log(
      {
        event: 'key_created',
        user_id: session.userId,
        org_id: session.organization.id,
        key_id: created.id,
        mode: created.mode,
      },
      'dashboard key created',
    );
    sendPage(
      res,
      201,
      createdKeyPage(ctx, {
        key: created.key,
        mode: created.mode,
        name: name || null,
        baseUrl: this.options.publicBaseUrl,
      }),
    );
  }

  /**
   * With `confirmed=1` (the page's script asks first; the confirmation page sends it) the key is
   * revoked; without, the confirmation page is the answer.
   */
  @Post(':id/revoke')
  async revoke(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @FormSession() session: SignedIn,
    @Param('id') id: string,
  ): Promise<void> {
    const key = await this.ownKey(session, id);
    if (key.revokedAt) return redirect(res, '/dashboard/keys');
    if (req.body?.confirmed !== '1') return sendPage(res, 200, revokeConfirmPage(viewContext(req), key));
    await this.apiKeys.revokeApiKey(key.id);
    logger.log(
      { event: 'key_revoked', user_id: session.userId, org_id: session.organization.id, key_id: key.id },
      'dashboard key revoked',
    );
    redirect(res, `/dashboard/keys?revoked=${key.id}`);
  }

  /** The organization's API keys: not the people's dashboard keys (ApiKeyStore.dashboardKeyOf), which no one holds. */
  private async apiKeysOf(session: SignedIn): Promise<ApiKeyInfo[]> {
    return (await this.apiKeys.listApiKeys(session.organization.id)).filter((k) => !isDashboardKey(k));
  }

  private async ownKey(session: SignedIn, id: string): Promise<ApiKeyInfo> {
    const key = API_KEY_ID.test(id) ? (await this.apiKeysOf(session)).find((k) => k.id === id) : undefined;
    if (!key) throw new DashboardNotFound();
    return key;
  }
}
