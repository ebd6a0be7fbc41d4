/**
 * What the application that mounts the dashboard tells it (`DashboardModule.forRoot`): the few
 * settings of its environment the dashboard reads. The gateway builds them from its validated
 * configuration (apps/gateway config.ts `dashboardOptionsOf`); the stores, Redis and the clock come
 * from libs/infra's InfraModule, which the application imports too.
 */
export interface DashboardOptions {
  /** PUBLIC_BASE_URL: the API's address in the pages' examples, and the origin forms must come from. */
  publicBaseUrl: string;
  /** The application's one secret (PAYLOAD_ENCRYPTION_KEY): the device cookies' key derives from it. */
  secret: Buffer;
  /** QUEUE_PREFIX: the prefix of the dashboard's keys in Redis (sign-in failures, Try it's limit). */
  keyPrefix: string;
  /** RATE_LIMIT_SCALE: multiplies the plans' per-minute limits, as for the API. */
  rateLimitScale: number;
  /** TEST_ROWS_PER_MONTH: rows an organization's test keys may generate in a month (API.md §10). */
  testRowsPerMonth: number;
  /**
   * GENERATE_QUEUE_THRESHOLD_ROWS: the Build page sends bodies of more rows with `Prefer:
   * respond-async` (such a file is made by a worker; the page polls its status rather than hold a request).
   */
  asyncAboveRows: number;
}

/** The options given to `DashboardModule.forRoot`, injected by this token. */
export const DASHBOARD_OPTIONS = Symbol('DashboardOptions');
