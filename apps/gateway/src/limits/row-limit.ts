import { CURRENT_LIMITS } from '@ppfile/rules';
import type { Principal } from '../common/request-context';

/** Lines per request (SERVICE.md §8), from the spec's limits: 50,000 with a live key, 50 with a test key. */
export const ROW_LIMITS = { live: CURRENT_LIMITS.maxRowsLive, test: CURRENT_LIMITS.maxRowsTest } as const;

export function rowLimit(principal: Principal): number {
  return ROW_LIMITS[principal.mode];
}
