/**
 * The dashboard session as the page holds it: its CSRF token (the one the page was served with, then
 * the one GET /dashboard/build/session gives), and a keep-alive — that GET, with no data, every ten
 * minutes while a file is open and the tab is visible — so an idle editing session does not expire
 * and the corrections made are not lost at Generate.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { BuildConfig } from './config';
import { http } from './http';
import { readSession } from './server';

export const KEEP_ALIVE_MS = 10 * 60 * 1000;

export interface DashboardSession {
  csrf: () => string;
  /** The session's token read again (after a sign-in in another tab); rejects 401 when signed out. */
  refresh: () => Promise<string>;
}

export function useSession(config: BuildConfig, keepAlive: boolean): DashboardSession {
  const csrf = useRef(config.csrf);
  const refresh = async () => {
    csrf.current = await readSession(http, config.sessionUrl);
    return csrf.current;
  };
  useEffect(() => {
    if (!keepAlive) return undefined;
    const timer = setInterval(() => {
      // A hidden tab is left to expire as any page would; the visible one keeps its session.
      if (document.visibilityState === 'visible') refresh().catch(() => undefined);
    }, KEEP_ALIVE_MS);
    return () => clearInterval(timer);
  }, [keepAlive]);
  return { csrf: () => csrf.current, refresh };
}
