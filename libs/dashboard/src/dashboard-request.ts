import type { Request } from 'express';
import type { ActiveSession } from '@ppfile/db';
import type { Lang } from '@ppfile/rules';

/** A signed-in person, as every dashboard page sees them. */
export interface SignedIn extends ActiveSession {
  /** The session token from the cookie: never logged, never rendered (the CSRF token derives from it). */
  token: string;
  /** The CSRF token every form of this session carries. */
  csrf: string;
}

/** What the dashboard's middleware attaches to each of its requests. */
export interface DashboardState {
  lang: Lang;
  cookies: Map<string, string>;
  session: SignedIn | null;
  /** A session cookie was sent but its session is over (expired, idle, signed out elsewhere). */
  sessionEnded: boolean;
  /** Reading the session failed (database down): the page answers 503 rather than "signed out". */
  sessionError?: unknown;
}

/**
 * A request to the dashboard: what the mounting application's middleware set before it (the request
 * id, before routing; the language, which the dashboard's own middleware sets too), and the dashboard's state.
 */
export interface DashboardRequest extends Request {
  requestId: string;
  lang: Lang;
  dashboard: DashboardState;
  body: Record<string, unknown> | undefined;
}
