/** Plans and their limits, SERVICE.md §8 (units: one holder, i.e. one file row). */
export const PLANS = {
  free: { requestsPerMinute: 30, monthlyUnits: 100 },
  starter: { requestsPerMinute: 60, monthlyUnits: 2000 },
  pro: { requestsPerMinute: 300, monthlyUnits: 10000 },
  business: { requestsPerMinute: 600, monthlyUnits: 50000 },
} as const satisfies Record<string, { requestsPerMinute: number; monthlyUnits: number }>;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(PLANS, value);
}

/** The usage month of a moment: the counter resets on the 1st of each month, UTC (SERVICE.md §8). */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export function isMonth(value: unknown): value is string {
  return typeof value === 'string' && MONTH.test(value);
}
