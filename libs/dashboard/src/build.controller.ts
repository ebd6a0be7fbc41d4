import {
  Controller,
  Get,
  Header,
  Inject,
  Logger,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiError, FILE_ID, isExpired, type GenerateResponseBody } from '@ppfile/contract';
import { ApiKeyStore, ColumnMappingStore, FileStore, PLANS, type AuthenticatedKey } from '@ppfile/db';
import { Clock, RateLimiter } from '@ppfile/infra';
import { formatIsoDate, parisDay } from '@ppfile/rules';
import { template, templateFileName, TEMPLATE_CONTENT_TYPE } from '@ppfile/sheets';
import { webAssetUrls, WebAssets } from './assets/web-assets';
import { DashboardJsonFilter, fieldProblem, invalidField } from './build-errors';
import { DASHBOARD_OPTIONS, type DashboardOptions } from './dashboard-options';
import { CsrfRejected, DashboardExceptionFilter, sendPage } from './dashboard-errors';
import type { DashboardRequest, SignedIn } from './dashboard-request';
import { FILE_GENERATOR, type FileGenerator } from './file-generator';
import { MESSAGES } from './i18n';
import { kindOfQuery, readMapping } from './mappings';
import { sameToken } from './session-cookies';
import { Session, SignedInGuard } from './signed-in';
import { buildPage, type BuildConfig } from './views/build-page';
import { viewContext } from './views/layout';

const logger = new Logger('dashboard');

/** The header of the Build page's JSON writes that carries the session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';
/** As POST /v1/files/generate takes it (API.md §8). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** How long a client waits before reading a queued file's status again (the API's Retry-After). */
const POLL_AFTER_SECONDS = 2;

export const BUILD_URLS = {
  page: '/dashboard/build',
  template: '/dashboard/build/template',
  mappings: '/dashboard/build/mappings',
  generate: '/dashboard/build/generate',
  session: '/dashboard/build/session',
  files: '/dashboard/files',
  signIn: '/dashboard/sign-in',
  usage: '/dashboard',
} as const;

/** Where the dashboard serves a file's bytes (DashboardFilesController), for the file's organization. */
export const dashboardDownloadUrl = (fileId: string): string => `/dashboard/files/${fileId}/download`;

/**
 * GET /dashboard/build: the Build page's shell (views/build-page.ts). Everything the page does with
 * the file happens in the browser; the server gives it the template, the saved mappings, and
 * Generate (DashboardBuildApiController).
 */
@ApiExcludeController()
@Controller('dashboard/build')
@UseFilters(DashboardExceptionFilter)
@UseGuards(SignedInGuard)
export class DashboardBuildPageController {
  constructor(
    @Inject(WebAssets) private readonly web: WebAssets,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  @Get()
  page(@Req() req: DashboardRequest, @Res() res: Response, @Session() session: SignedIn): void {
    const urls = webAssetUrls(this.web);
    const ctx = viewContext(req);
    const config: BuildConfig = {
      lang: ctx.lang,
      today: formatIsoDate(parisDay(this.clock.now())),
      csrf: session.csrf,
      workerUrl: urls.worker,
      listsUrl: urls.lists,
      templateUrl: BUILD_URLS.template,
      mappingsUrl: BUILD_URLS.mappings,
      generateUrl: BUILD_URLS.generate,
      filesUrl: BUILD_URLS.files,
      sessionUrl: BUILD_URLS.session,
      signInUrl: BUILD_URLS.signIn,
      usageUrl: BUILD_URLS.usage,
      asyncAboveRows: this.options.asyncAboveRows,
    };
    sendPage(res, 200, buildPage(ctx, { config, urls }));
  }
}

/**
 * The Build page's requests, answered in JSON with the API's error shape (build-errors.ts): the
 * template, the organization's saved mappings, Generate — the one request that carries the file's
 * data — and the status of a file Generate queued. Writes carry the session's CSRF token in
 * `X-CSRF-Token` (a form carries it in `_csrf`); a request another site sent was refused before
 * (DashboardSessionMiddleware).
 */
@ApiExcludeController()
@Controller('dashboard/build')
@UseFilters(DashboardJsonFilter)
@UseGuards(SignedInGuard)
export class DashboardBuildApiController {
  constructor(
    @Inject(FILE_GENERATOR) private readonly generator: FileGenerator,
    @Inject(ApiKeyStore) private readonly apiKeys: ApiKeyStore,
    @Inject(ColumnMappingStore) private readonly mappings: ColumnMappingStore,
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  /** The XLSX template, as GET /v1/spec/{current}/template answers it (API.md §14): same bytes and headers. */
  @Get('template')
  template(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Query() query: Record<string, unknown>,
  ): void {
    const kind = kindOfQuery(query, req.dashboard.lang);
    const bytes = template(kind.type, kind.declarant, kind.spec.version, req.dashboard.lang);
    res.status(200);
    res.setHeader('Content-Type', TEMPLATE_CONTENT_TYPE);
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${templateFileName(kind.type, kind.declarant, kind.spec.version)}"`,
    );
    res.setHeader('Content-Length', String(bytes.length));
    res.end(bytes);
  }

  @Get('mappings')
  async readMappings(
    @Req() req: DashboardRequest,
    @Session() session: SignedIn,
    @Query() query: Record<string, unknown>,
  ): Promise<{ mapping: Record<string, string | null> }> {
    const kind = kindOfQuery(query, req.dashboard.lang);
    return { mapping: await this.mappings.get(session.organization.id, kind.type, kind.declarant) };
  }

  @Put('mappings')
  async saveMappings(
    @Req() req: DashboardRequest,
    @Session() session: SignedIn,
    @Query() query: Record<string, unknown>,
  ): Promise<{ mapping: Record<string, string | null> }> {
    checkCsrfHeader(req, session);
    const lang = req.dashboard.lang;
    const kind = kindOfQuery(query, lang);
    const mapping = readMapping(req.body, kind, lang);
    await this.mappings.put(session.organization.id, kind.type, kind.declarant, mapping);
    return { mapping };
  }

  /**
   * POST /dashboard/build/generate: the body of POST /v1/files/generate, produced by the API's own
   * use-case (FILE_GENERATOR) on behalf of the signed-in person's organization in live mode — its
   * live units and monthly quota, its files — under the person's dashboard key (see generateFor).
   * `Idempotency-Key` is required: the page makes it from the body sent, so a second click, a retry
   * after a lost answer or the same file read again makes no second file. The answer is the API's,
   * but for where the file is downloaded: the dashboard's route, for any person of the organization.
   */
  @Post('generate')
  async generate(
    @Req() req: DashboardRequest & { rawBody?: Buffer },
    @Res() res: Response,
    @Session() session: SignedIn,
  ): Promise<void> {
    checkCsrfHeader(req, session);
    const lang = req.dashboard.lang;
    const idempotencyKey = req.header('idempotency-key');
    if (idempotencyKey === undefined)
      throw invalidField('Idempotency-Key', MESSAGES[lang].build.refusals.idempotencyKeyRequired);
    if (!IDEMPOTENCY_KEY.test(idempotencyKey))
      throw invalidField('Idempotency-Key', fieldProblem('idempotency_key', lang));
    // The organization's per-minute limit for Generate, counted apart from its API calls (the plan's rate).
    const perMinute = PLANS[session.organization.plan].requestsPerMinute * this.options.rateLimitScale;
    const limit = await this.limiter.hit([
      { name: `dashboard-build:${session.organization.id}`, limit: perMinute },
    ]);
    if (!limit.allowed)
      throw new ApiError(
        'RATE_LIMIT_EXCEEDED',
        { limit: perMinute, count: limit.reset },
        { limit: perMinute, retry_after: limit.reset },
        { 'Retry-After': String(limit.reset) },
      );
    const respondAsync = /(^|[,;\s])respond-async\b/i.test(req.header('prefer') ?? '');
    const reply = await this.generator.generate({
      principal: await this.principalOf(session),
      lang,
      body: req.body,
      rawBody: req.rawBody,
      idempotencyKey,
      requestId: req.requestId,
      respondAsync,
    });
    logger.log(
      {
        event: 'dashboard_generate',
        user_id: session.userId,
        org_id: session.organization.id,
        file_id: reply.body.file_id,
        status: reply.status,
        replayed: reply.replayed,
      },
      'dashboard file generated',
    );
    if (reply.replayed) res.setHeader('Idempotent-Replayed', 'true');
    if (reply.status === 202) {
      res.setHeader('Location', `/dashboard/build/files/${reply.body.file_id}`);
      res.setHeader('Retry-After', String(POLL_AFTER_SECONDS));
      if (respondAsync) res.setHeader('Preference-Applied', 'respond-async');
      res.status(202).json(reply.body);
      return;
    }
    res.status(200).json(withDashboardDownload(reply.body));
  }

  /**
   * The session, with no data: read by the page every ten minutes while a file is open (so an idle
   * editing session does not expire) and before Retry after a sign-in in another tab (the token of
   * the session as it is now). 401 SIGN_IN_REQUIRED when signed out.
   */
  @Get('session')
  @Header('Cache-Control', 'no-store')
  sessionState(@Session() session: SignedIn): { csrf: string } {
    return { csrf: session.csrf };
  }

  /** A file Generate answered 202 for: its status, and where to download it once available. */
  @Get('files/:id')
  async fileStatus(@Param('id') id: string, @Session() session: SignedIn): Promise<Record<string, unknown>> {
    const record = FILE_ID.test(id) ? await this.files.getFileRecord(id) : null;
    if (!record || record.organizationId !== session.organization.id) throw new ApiError('NOT_FOUND');
    const status = isExpired(record, this.clock.now()) ? 'expired' : record.status;
    return {
      file_id: record.id,
      status,
      filename: record.filename,
      rows: record.rows,
      sha256: record.sha256,
      stored: record.stored,
      expires_at: record.expiresAt ? record.expiresAt.toISOString() : null,
      download_url: status === 'available' ? dashboardDownloadUrl(record.id) : null,
      ...(record.status === 'failed' ? { error: record.error } : {}),
    };
  }

  /**
   * Who a dashboard Generate is recorded as. The organization, in live mode: a person of it
   * generates for it, as its live keys do, against its live units and quota. And a key, since every
   * file and every Idempotency-Key belongs to one (files.api_key_id, idempotency_records): the
   * person's own dashboard key (ApiKeyStore.dashboardKeyOf), made on first use — not one of the
   * organization's API keys, which nobody used here and which may be revoked tomorrow. It holds no
   * secret, so it opens nothing on the API; the Files page names it "Build a file", and the key
   * scopes the person's Idempotency-Keys as an API key scopes its caller's.
   */
  private async principalOf(session: SignedIn): Promise<AuthenticatedKey> {
    const keyId = await this.apiKeys.dashboardKeyOf({
      userId: session.userId,
      organizationId: session.organization.id,
    });
    return { keyId, mode: 'live', organization: session.organization };
  }
}

/** The session's CSRF token in the X-CSRF-Token header, or 403 (a form carries it in `_csrf`). */
function checkCsrfHeader(req: DashboardRequest, session: SignedIn): void {
  if (!sameToken(req.header(CSRF_HEADER), session.csrf)) throw new CsrfRejected();
}

/** The API's answer with the dashboard's download URL (the API's is for the creating key only). */
function withDashboardDownload(body: GenerateResponseBody): GenerateResponseBody {
  return { ...body, download_url: body.stored ? dashboardDownloadUrl(body.file_id) : null };
}
