/**
 * jest: unit tests beside the code (*.spec.ts), end-to-end tests in test/ (*.e2e-spec.ts).
 *
 * `npm test` runs two jest commands: the unit and e2e projects together on four workers (PPFILE_TEST_WORKERS), then
 * the e2e-alone project (files that measure latency, which other files on the same two cores would
 * disturb) on its own. Most e2e files wait on PostgreSQL, Redis, s3rver, Chromium or a child process
 * most of the time, so four workers keep two cores busy; each e2e file has its own database, queue
 * prefix, S3 directory and ports, so files do not meet.
 */
// `--selectProjects` takes every word after it as a project name: `--selectProjects e2e test/x.e2e-spec.ts`
// drops the path and runs every e2e file (minutes on two cores). Refused here, with what to write.
{
  const argv = process.argv;
  const at = argv.indexOf('--selectProjects');
  const words = [];
  for (let i = at + 1; at >= 0 && i < argv.length && !argv[i].startsWith('-'); i++) words.push(argv[i]);
  const paths = words.filter((w) => w.includes('/') || /\.[cm]?[jt]s$/.test(w));
  if (paths.length > 0)
    throw new Error(
      `--selectProjects took ${paths.join(', ')} for a project name, and would run every file of the project: ` +
        `write \`npx jest ${paths.join(' ')}\` (the file names its project).`,
    );
}

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const moduleNameMapper = {
  '^@ppfile/(rules|refdata|storage|db|jobs|config|contract|infra|dashboard|client|sheets)$':
    '<rootDir>/libs/$1/src',
  '^@ppfile/(rules|refdata|storage|db|jobs|config|contract|infra|dashboard|client|sheets)/(.*)$':
    '<rootDir>/libs/$1/src/$2',
};
const common = { transform: { '^.+\\.ts$': swc }, moduleNameMapper, testEnvironment: 'node' };

/** Files that time the service (a latency budget): they run after the others, alone (e2e-alone). */
const ALONE = ['<rootDir>/test/security/workbook-fuzz.e2e-spec.ts'];

/**
 * bench:scale's harness for 10 s (2 gateways, 4 workers, s3rver): `npm run test:scale`, not in
 * `npm test`. On fresh clones in CI its s3rver stopped during the traffic in 2 of 4 runs (every
 * stored generation 503), after the rest of the suite or beside it; never in 7 runs alone. Out of
 * CI until that is understood (issue 35's note).
 */
const SCALE = ['<rootDir>/test/scale.e2e-spec.ts'];

const e2e = {
  ...common,
  // Once before the e2e files: builds what is stale (cli, gateway, worker) and the migrated
  // template database that each test database copies (test/support/global-setup.ts).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // After each e2e file: its answers against openapi.json, its log lines (JSON, no personal data).
  setupFilesAfterEnv: ['<rootDir>/test/support/suite-audit.setup.ts'],
};

module.exports = {
  maxWorkers: Number(process.env.PPFILE_TEST_WORKERS ?? 4),
  // Jest's default is 5 s a test. With four workers on two cores a test shares them, so it may take
  // longer than when it ran alone; a test that times something says so itself (its own expectation).
  testTimeout: 30_000,
  // The longest files first, also on a fresh clone without jest's cache (test/support/sequencer.js).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'],
    },
    {
      ...e2e,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...ALONE, ...SCALE],
    },
    { ...e2e, displayName: 'e2e-alone', testMatch: ALONE },
    { ...e2e, displayName: 'scale', testMatch: SCALE },
  ],
};
