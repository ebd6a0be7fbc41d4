import type { NextFunction, Request, Response } from 'express';
import type { Metrics, RootLogger } from '@ppfile/infra';
import type { GatewayRequest } from './request-context';

/** A route template of the app (`/v1/files/:id`) and whether a path matches it. */
export interface RouteMatcher {
  template: string;
  matches(path: string): boolean;
}

/** Mounted sub-apps, labelled by their mount point (their inner paths are theirs). */
const MOUNTS = ['/admin/queues', '/docs', '/metrics'];

/**
 * One access line per request (API.md §13 LOG_LEVEL) and its metrics: request id, method, route
 * template, status, duration, key and organization ids, error code — never the key, the query
 * string or a value of the body. The route is a template, never the raw path (a file id or a
 * search term would make one series per request). Registered first, so every answer is seen:
 * API errors, 404s, operator pages, health.
 */
export function accessLog(options: { logger: RootLogger; metrics: Metrics; routes: () => RouteMatcher[] }) {
  const { logger, metrics } = options;
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const path = req.path;
    res.once('close', () => {
      // After the answer: nothing here may throw (an exception in an event listener ends the process).
      try {
        write();
      } catch (e) {
        logger.warn({ type: 'access', err_name: (e as Error)?.name }, 'access line not written');
      }
    });
    const write = (): void => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const r = req as GatewayRequest;
      const route = routeOf(req, path, options.routes());
      // A client that went away before the answer was finished: 499, as nginx says it.
      const status = res.writableFinished ? res.statusCode : 499;
      const code = res.locals.errorCode as string | undefined;
      metrics.httpDuration.observe({ route, method: req.method, status: String(status) }, seconds);
      if (code) metrics.refusals.inc({ code });
      logger.info(
        {
          type: 'access',
          request_id: r.requestId,
          method: req.method,
          route,
          status,
          duration_ms: Math.round(seconds * 10_000) / 10,
          key_id: r.principal?.keyId,
          org_id: r.principal?.organization.id,
          code,
        },
        'request',
      );
    };
    next();
  };
}

/**
 * Nest's middleware is also registered as Express routes, with wildcard paths (`/v1/*path`): a
 * request stopped by a middleware (401) has that as `req.route`. The template is then the
 * controller route the path was aimed at; a path no controller serves is `unmatched`.
 */
function routeOf(req: Request, path: string, routes: RouteMatcher[]): string {
  const matched = (req as { route?: { path?: unknown } }).route?.path;
  if (typeof matched === 'string' && !matched.includes('*')) return matched;
  for (const mount of MOUNTS) if (path === mount || path.startsWith(`${mount}/`)) return mount;
  return routes.find((r) => r.matches(path))?.template ?? 'unmatched';
}

/** The route templates Express knows once the app is initialised (Nest's controllers, not its middleware). */
export function expressRoutes(expressApp: unknown): RouteMatcher[] {
  const router = (expressApp as { router?: { stack?: unknown[] } }).router;
  const out: RouteMatcher[] = [];
  for (const layer of router?.stack ?? []) {
    const l = layer as { route?: { path?: unknown }; match?: (p: string) => boolean };
    if (
      !l.route ||
      typeof l.route.path !== 'string' ||
      typeof l.match !== 'function' ||
      l.route.path.includes('*')
    )
      continue;
    const template = l.route.path;
    const match = l.match.bind(l);
    // Matching decodes the path's parameters: broken percent-encoding (`%E0%A4%A`) throws URIError.
    // Such a path was answered 400 by the router; here it matches no template.
    out.push({
      template,
      matches: (p) => {
        try {
          return match(p);
        } catch {
          return false;
        }
      },
    });
  }
  return out;
}
