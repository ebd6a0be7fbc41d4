import {
  BadRequestException,
  Inject,
  Injectable,
  PayloadTooLargeException,
  type NestMiddleware,
} from '@nestjs/common';
import { json, urlencoded, type NextFunction, type Response } from 'express';
import { ApiError } from '@ppfile/contract';
import { SessionStore } from '@ppfile/db';
import { pickLang } from '@ppfile/rules';
import { DASHBOARD_OPTIONS, type DashboardOptions } from './dashboard-options';
import { sendJsonFailure } from './build-errors';
import { CsrfRejected, renderFailure } from './dashboard-errors';
import type { DashboardRequest } from './dashboard-request';
import { dashboardLang } from './i18n';
import {
  csrfTokenFor,
  isForeignRequest,
  LANG_COOKIE,
  ownOrigins,
  parseCookies,
  readCookie,
  SESSION_COOKIE,
  SESSION_LIMITS,
} from './session-cookies';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Runs before every /dashboard request (AppModule orders it after the request id): the page's
 * language, the cookies, and the signed-in session if the cookie names a live one. It refuses one
 * thing: a form post another site sent (Origin, Sec-Fetch-Site: isForeignRequest) — 403, before any
 * body is read, whatever its CSRF token. Pages that need a session say so (SignedInGuard), so the
 * sign-in page and the assets are served to anyone. A database failure is kept for the page to
 * answer 503, not taken for "signed out".
 */
@Injectable()
export class DashboardSessionMiddleware implements NestMiddleware {
  constructor(
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(DASHBOARD_OPTIONS) private readonly options: DashboardOptions,
  ) {}

  async use(req: DashboardRequest, res: Response, next: NextFunction): Promise<void> {
    const cookies = parseCookies(req.header('cookie'));
    const lang = dashboardLang(
      readCookie(cookies, LANG_COOKIE, req.secure),
      req.header('accept-language'),
      pickLang,
    );
    req.lang = lang;
    req.dashboard = { lang, cookies, session: null, sessionEnded: false };
    if (!SAFE_METHODS.has(req.method) && this.isForeign(req)) {
      // Its body (an upload, even) is not worth reading.
      res.setHeader('Connection', 'close');
      return renderFailure(req, res, new CsrfRejected());
    }
    const token = readCookie(cookies, SESSION_COOKIE, req.secure);
    // originalUrl: in a middleware mounted on a path, req.path is relative to the mount point.
    if (token && !(req.originalUrl ?? req.url).startsWith('/dashboard/static/')) {
      try {
        const session = await this.sessions.resume(token, SESSION_LIMITS);
        if (session) req.dashboard.session = { ...session, token, csrf: csrfTokenFor(token) };
        else req.dashboard.sessionEnded = true;
      } catch (e) {
        req.dashboard.sessionError = e;
      }
    }
    next();
  }

  private isForeign(req: DashboardRequest): boolean {
    const source = { origin: req.header('origin'), secFetchSite: req.header('sec-fetch-site') };
    return isForeignRequest(source, ownOrigins(this.options.publicBaseUrl, req.protocol, req.host));
  }
}

/** Forms of the dashboard: small, URL-encoded; multipart (Try it) is read by the route's own interceptor. */
const parseForm = urlencoded({ extended: false, limit: '32kb', parameterLimit: 50 });

/**
 * The body of a URL-encoded POST to the dashboard. A refused body (too large, bad charset) is
 * answered here as a page, before Nest's routing.
 */
export function dashboardFormBody(req: DashboardRequest, res: Response, next: NextFunction): void {
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (req.method !== 'POST' || type !== 'application/x-www-form-urlencoded') return next();
  parseForm(req, res, (err?: unknown) => {
    if (!err) return next();
    const status = (err as { status?: number }).status ?? 400;
    res.setHeader('Connection', 'close');
    renderFailure(req, res, status === 413 ? new PayloadTooLargeException() : new BadRequestException());
  });
}

/** The Build page's small JSON writes (a saved mapping: 200 headers of 255 characters fit). */
const parseJson = json({ limit: '128kb', strict: true });

/**
 * The JSON body of a PUT to the dashboard (the Build page's saved mappings), refused in the API's
 * error shape. Generate's body, up to the API's 20 MB, is read by the mounting application's own
 * JSON reader (the gateway's, as for POST /v1/files/generate).
 */
export function dashboardJsonBody(req: DashboardRequest, res: Response, next: NextFunction): void {
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  // Not signed in: the route's guard answers 401, without the body being read.
  if (req.method !== 'PUT' || !req.dashboard?.session) return next();
  if (type !== 'application/json')
    return sendJsonFailure(
      req,
      res,
      new ApiError('UNSUPPORTED_MEDIA_TYPE', { expected: 'application/json' }),
    );
  parseJson(req, res, (err?: unknown) => {
    if (!err) return next();
    const status = (err as { status?: number }).status ?? 400;
    res.setHeader('Connection', 'close');
    sendJsonFailure(
      req,
      res,
      status === 413
        ? new ApiError('PAYLOAD_TOO_LARGE', { limit: 128 * 1024 })
        : new ApiError('INVALID_JSON'),
    );
  });
}
