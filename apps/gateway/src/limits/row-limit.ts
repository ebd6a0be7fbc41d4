import type { Principal } from '../common/request-context';

/** Lines per request (SERVICE.md §8): 50,000 with a live key, 50 with a test key. */
export const ROW_LIMITS = { live: 50_000, test: 50 } as const;

export function rowLimit(principal: Principal): number {
  return ROW_LIMITS[principal.mode];
}
