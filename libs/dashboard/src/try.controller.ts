import {
  ArgumentsHost,
  Catch,
  Controller,
  Get,
  Inject,
  PayloadTooLargeException,
  Post,
  Req,
  Res,
  UploadedFile,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type ExceptionFilter,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { PLANS } from '@ppfile/db';
import { Clock, RateLimiter } from '@ppfile/infra';
import { ReferenceDirectory } from '@ppfile/refdata';
import {
  countDataLines,
  createCsvValidator,
  CURRENT_LIMITS,
  parisDay,
  RequestError,
  type FileValidationResponse,
  type Lang,
} from '@ppfile/rules';
import { DASHBOARD_OPTIONS, type DashboardOptions } from './dashboard-options';
import { DashboardExceptionFilter, sendPage } from './dashboard-errors';
import { readPageForm, TryFields } from './forms';
import type { DashboardRequest, SignedIn } from './dashboard-request';
import { MESSAGES } from './i18n';
import { FormSession, Session, SignedInGuard } from './signed-in';
import { viewContext } from './views/layout';
import { tryPage, type TryForm } from './views/try-page';

/** Try it takes small files only: a test key's 50 rows fit in far less (the API takes 20 MB). */
export const TRY_MAX_BYTES = 2 * 1024 * 1024;

export type TryOutcome =
  { kind: 'result'; response: FileValidationResponse } | { kind: 'refused'; message: string };

/**
 * The check itself, as POST /v1/files/validate does it with a test key (SERVICE.md §4.3): the same
 * rules (libs/rules createCsvValidator), reference lists and day, at most 50 rows — and nothing
 * reserved, counted or stored. The bytes stay in memory (multer's memory storage) for the time of
 * the check.
 */
export function checkUpload(
  upload: { buffer: Buffer } | undefined,
  form: TryForm,
  env: { references: ReferenceDirectory; today: number; lang: Lang; filename: string },
): TryOutcome {
  const t = MESSAGES[env.lang].tryIt;
  if (!upload || upload.buffer.length === 0) return { kind: 'refused', message: t.noFile };
  // A test key's rows (SERVICE.md §8), as the API's row limit of a test key.
  const limit = CURRENT_LIMITS.maxRowsTest;
  try {
    const validator = createCsvValidator(
      { type: form.type, declarant: form.declarant, strict_references: form.strict, filename: env.filename },
      { refs: env.references.listsFor(undefined), today: env.today, lang: env.lang, maxRows: limit },
    );
    const lines = countDataLines(upload.buffer);
    if (lines > limit) return { kind: 'refused', message: t.tooManyRows(limit, String(lines)) };
    validator.write(upload.buffer);
    return { kind: 'result', response: validator.end() };
  } catch (e) {
    if (e instanceof RequestError) {
      const fields = (e.details?.fields as { field: string; message: string }[] | undefined) ?? [];
      return {
        kind: 'refused',
        message: fields.length ? fields.map((f) => `${f.field}: ${f.message}`).join('; ') : e.message,
      };
    }
    throw e;
  }
}

/** The form as its page shows it again, and what is wrong with it (TryFields, forms.ts). */
function formOf(body: unknown, lang: Lang): { form: TryForm; problems: string[] } {
  const { form, problems } = readPageForm(TryFields, body, MESSAGES[lang], lang);
  return {
    form: { type: form.type, declarant: form.declarant, strict: form.strict_references },
    problems,
  };
}

/** The name of an upload as shown: its last path segment, printable characters, at most 120. */
function displayName(name: string | undefined): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  return last.replace(/[\p{Cc}\u2028\u2029]/gu, '').slice(0, 120) || 'upload.csv';
}

/** An upload over TRY_MAX_BYTES (multer stops reading it): the Try it page says so. */
@Catch(PayloadTooLargeException)
export class TryTooLargeFilter implements ExceptionFilter {
  catch(_exception: PayloadTooLargeException, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<DashboardRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    const ctx = viewContext(req);
    res.locals.errorCode = 'PAYLOAD_TOO_LARGE';
    res.setHeader('Connection', 'close');
    sendPage(
      res,
      413,
      tryPage(ctx, {
        form: formOf(req.body, ctx.lang).form,
        refusal: ctx.t.tryIt.tooLarge(TRY_MAX_BYTES / 1024 / 1024),
      }),
    );
  }
}

@ApiExcludeController()
@Controller('dashboard/try')
@UseFilters(DashboardExceptionFilter)
@UseGuards(SignedInGuard)
export class DashboardTryController {
  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  @Get()
  page(@Req() req: DashboardRequest, @Res() res: Response, @Session() _session: SignedIn): void {
    sendPage(
      res,
      200,
      tryPage(viewContext(req), { form: { type: 'adf', declarant: 'training_organization', strict: true } }),
    );
  }

  // Memory storage (no `dest`): the upload never touches the disk (SERVICE.md §4.3). The guard
  // runs first: nothing is read from a browser that is not signed in.
  @Post()
  @UseFilters(TryTooLargeFilter)
  @UseInterceptors(
    FileInterceptor('file', {
      limits: { fileSize: TRY_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 },
      defParamCharset: 'utf8',
    }),
  )
  async check(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @FormSession() session: SignedIn,
    @UploadedFile() upload: { buffer: Buffer; originalname: string } | undefined,
  ): Promise<void> {
    const ctx = viewContext(req);
    const { form, problems } = formOf(req.body, ctx.lang);
    // The organization's per-minute limit, counted apart from its API calls (nothing of the API's is counted).
    const perMinute = PLANS[session.organization.plan].requestsPerMinute * this.options.rateLimitScale;
    const limit = await this.limiter.hit([
      { name: `dashboard-try:${session.organization.id}`, limit: perMinute },
    ]);
    if (!limit.allowed) {
      res.setHeader('Retry-After', String(limit.reset));
      res.locals.errorCode = 'RATE_LIMIT_EXCEEDED';
      return sendPage(res, 429, tryPage(ctx, { form, refusal: ctx.t.tryIt.throttled(limit.reset) }));
    }
    const filename = displayName(upload?.originalname);
    // A missing file is said first (checkUpload), then the form's problems, with the API's words.
    const outcome: TryOutcome =
      upload?.buffer.length && problems.length
        ? { kind: 'refused', message: problems.join('; ') }
        : checkUpload(upload, form, {
            references: this.references,
            today: parisDay(this.clock.now()),
            lang: ctx.lang,
            filename,
          });
    if (outcome.kind === 'refused') {
      res.locals.errorCode = 'INVALID_REQUEST';
      return sendPage(res, 400, tryPage(ctx, { form, refusal: outcome.message }));
    }
    sendPage(res, 200, tryPage(ctx, { form, result: { filename, response: outcome.response } }));
  }
}
