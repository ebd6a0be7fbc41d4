/**
 * @ppfile/config — each process's environment (API.md §13) as a class validated once at boot
 * (class-validator, class-transformer): the settings every process shares here, each app's own in its
 * config.ts. Nothing else reads process.env.
 */
export * from './env-validation';
export * from './services-environment';
