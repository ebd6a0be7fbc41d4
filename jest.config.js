/** jest: unit tests beside the code (*.spec.ts), end-to-end tests in test/ (*.e2e-spec.ts). */
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

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // After each e2e file: its answers against openapi.json, its log lines (JSON, no personal data).
      setupFilesAfterEnv: ['<rootDir>/test/support/suite-audit.setup.ts'],
    },
  ],
};
