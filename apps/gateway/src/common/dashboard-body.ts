import type { NextFunction, Response } from 'express';
import type { BodyBudget } from './body-budget';
import { jsonBody } from './json-body.middleware';
import type { GatewayRequest } from './request-context';

/**
 * The JSON body of the dashboard's Generate (libs/dashboard, POST /dashboard/build/generate): read as
 * POST /v1/files/generate's (jsonBody: 20 MB inflated, UTF-8 JSON, nesting bounded, the raw bytes kept
 * for the queued job) and held against the body budget — but only for a signed-in browser: without a
 * session nothing is read, and the route's guard answers 401. Runs after DashboardSessionMiddleware.
 */
export function signedInJsonBody(bodies: BodyBudget) {
  const json = jsonBody();
  return (req: GatewayRequest, res: Response, next: NextFunction): void => {
    const signedIn = (req as { dashboard?: { session?: unknown } }).dashboard?.session;
    if (!signedIn) return next();
    bodies.middleware(req, res, () => json(req, res, next));
  };
}
