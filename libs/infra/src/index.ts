/**
 * @ppfile/infra — the Nest module both apps import: the shared clients and stores built once from
 * the validated configuration, the queue, the file lifecycle and its production, the Redis policy,
 * and the limits' stores in Redis (the per-minute limiter, sign-in failures). Which errors mean a
 * dependency is down is libs/jobs' (`isDependencyDown`), below it.
 */
export * from './basic-auth';
export * from './clock';
export * from './health';
export * from './infra.module';
export * from './job-queue';
export * from './limits/rate-limiter';
export * from './limits/throttle-store';
export * from './observability/dependency-log';
export * from './observability/logger';
export * from './observability/metrics';
export * from './observability/metrics-refresher';
export * from './redis';
