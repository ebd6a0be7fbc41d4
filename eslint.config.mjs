import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

/*
 * The layer rule (docs/architecture.md). A library imports only libraries of lower layers (or
 * itself), never upward, never apps/; an app never imports another app. Imports between libraries
 * go through the @ppfile/<lib> aliases, never through relative paths that climb out of a library.
 * Tests (*.spec.ts, *.e2e-spec.ts, libs/*\/src/testing, libs/*\/test) are exempt.
 */
const LAYERS = {
  rules: 0,
  config: 0,
  client: 0,
  refdata: 1,
  contract: 1,
  sheets: 1,
  db: 2,
  storage: 2,
  jobs: 3,
  infra: 4,
  dashboard: 5,
};
/**
 * Lower-layer libraries a library still may not import. libs/client is the API as a caller sees it
 * (generated from openapi.json): no library depends on it.
 */
const EXCLUDED = {
  db: ['rules', 'client'],
  refdata: ['client'],
  contract: ['client'],
  sheets: ['client', 'config'],
  storage: ['client'],
  jobs: ['client'],
  infra: ['client'],
  dashboard: ['client'],
};
const FRAMEWORK_AND_IO = {
  regex: '^(@nestjs/|@prisma/|(node:)?fs(/|$)|(express|prisma|bullmq|ioredis|minio|pg)(/|$))',
  list: '@nestjs/*, node:fs, prisma, bullmq, ioredis, minio, pg, express',
};
/** Packages a library may not import whatever its layer. */
const PACKAGE_BANS = {
  rules: [{ ...FRAMEWORK_AND_IO, why: 'libs/rules (layer 0) is pure: no framework, no I/O' }],
  contract: [
    { ...FRAMEWORK_AND_IO, why: 'libs/contract (layer 1) is the HTTP contract: no framework, no I/O' },
  ],
  sheets: [
    {
      ...FRAMEWORK_AND_IO,
      why: 'libs/sheets (layer 1) reads and writes bytes in memory: no framework, no I/O',
    },
  ],
  jobs: [
    { regex: '^@nestjs/', list: '@nestjs/*', why: 'libs/jobs (layer 3) has no Nest: libs/infra wraps it' },
  ],
};
const TESTS = ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/testing/**', '**/test/**'];
const APPS = ['gateway', 'worker', 'cli'];
/**
 * Libraries only some apps may import: the dashboard is the gateway's pages (the worker serves no
 * HTTP pages, the CLI loads no Nest).
 */
const APP_ONLY = { dashboard: ['gateway'] };
/** Files deeper than this below libs/<lib> or apps/<app> get this depth's relative-path check. */
const MAX_DEPTH = 8;

const RULE = 'layer rule (docs/architecture.md)';
/** A relative path from a file `depth` directories below the package root that climbs out of it. */
const escapes = (depth) => `^(\\./)?(\\.\\./){${depth}}\\.\\.(/|$)`;

function libraryPatterns(lib) {
  const allowed = Object.keys(LAYERS).filter(
    (l) => LAYERS[l] < LAYERS[lib] && !(EXCLUDED[lib] ?? []).includes(l),
  );
  const may = allowed.length
    ? `may import only ${allowed.map((l) => `@ppfile/${l}`).join(', ')}`
    : 'imports no other @ppfile library';
  return [
    {
      regex: `^@ppfile/(?!(${[lib, ...allowed].join('|')})(/|$))`,
      message: `${RULE}: libs/${lib} is layer ${LAYERS[lib]} and ${may} — never its own layer or above, nor apps/.`,
    },
    { regex: '^/?apps(/|$)', message: `${RULE}: a library never imports from apps/.` },
    { regex: '^/?libs(/|$)', message: `${RULE}: import another library through its @ppfile/<lib> alias.` },
    ...(PACKAGE_BANS[lib] ?? []).map((b) => ({ regex: b.regex, message: `${RULE}: ${b.why} (${b.list}).` })),
  ];
}

function appPatterns(app) {
  return [
    {
      regex: '^/?apps(/|$)',
      message: `${RULE}: an app never imports another app (apps/${app} may import only libraries).`,
    },
    { regex: '^/?libs(/|$)', message: `${RULE}: import a library through its @ppfile/<lib> alias.` },
    ...Object.entries(APP_ONLY)
      .filter(([, apps]) => !apps.includes(app))
      .map(([lib, apps]) => ({
        regex: `^@ppfile/${lib}(/|$)`,
        message: `${RULE}: libs/${lib} is imported only by ${apps.map((a) => `apps/${a}`).join(', ')}.`,
      })),
  ];
}

/**
 * One block per depth: `no-restricted-imports` sees only the import string, so "climbs out of the
 * package" is `../` one more time than the file is deep. The `**` block comes first and covers
 * anything deeper than MAX_DEPTH; the exact-depth blocks after it override it.
 */
function layerBlocks(root, patterns, escapeMessage) {
  const block = (files, depth) => ({
    files: [files],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...patterns, { regex: escapes(depth), message: escapeMessage }] },
      ],
    },
  });
  const blocks = [block(`${root}/**/*.{ts,tsx}`, MAX_DEPTH)];
  for (let depth = 1; depth < MAX_DEPTH; depth++)
    blocks.push(block(`${root}/${'*/'.repeat(depth)}*.{ts,tsx}`, depth));
  return blocks;
}

const layerRule = [
  ...Object.keys(LAYERS).flatMap((lib) =>
    layerBlocks(
      `libs/${lib}`,
      libraryPatterns(lib),
      `${RULE}: this relative path climbs out of libs/${lib}; import other libraries through @ppfile/<lib>, never apps/.`,
    ),
  ),
  ...APPS.flatMap((app) =>
    layerBlocks(
      `apps/${app}`,
      appPatterns(app),
      `${RULE}: this relative path climbs out of apps/${app}; an app never imports another app, and imports libraries through @ppfile/<lib>.`,
    ),
  ),
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/out/**'] },
  js.configs.recommended,
  // Type-aware: the rules see the types (promises not awaited, `any` flowing into typed code, …).
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['**/*.ts', '**/*.tsx'] })),
  {
    // The dashboard's browser code (libs/dashboard/web) is TSX too: Preact components.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Tests read HTTP answers (supertest's `res.body` is `any` by design) and JSON fixtures; what
    // those answers are is checked against openapi.json (test/support/contract.ts), not by types.
    files: TESTS,
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Reports `x as Json` (Record<string, any>) as unnecessary when x is Record<string, unknown>,
      // and removing it breaks the test's types.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  { files: ['**/*.js', '**/*.cjs', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    // Node scripts written as modules (libs/dashboard/web/build.mjs).
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...layerRule,
  {
    // No import circle between files, tests included (issue 34): a circle makes a module's exports
    // `undefined` while the other side is still loading, in an order that depends on which file Node
    // loads first. The shared piece moves where both sides can import it. The resolver reads
    // tsconfig.json's paths, so a circle through an @ppfile/<lib> alias is seen; type-only imports
    // are erased by the compiler and are not circles. Cost (2 cores): about 10 s of CPU on a lint of
    // about 55 s, mostly parsing each file once more; ignoreExternal keeps it out of node_modules'
    // typings (15 s more without it), and maxDepth would save nothing (every file is parsed anyway).
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // No regular expression whose time can grow faster than its input (issue 32: one over a
    // workbook's number format froze the gateway for minutes). Tests are exempt: their input is theirs.
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    ignores: TESTS,
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': ['error', { ignoreSticky: false, ignorePartial: false }],
    },
  },
  {
    // The typed client is used as a caller uses it: no type assertion, no non-null assertion.
    files: ['test/client.e2e-spec.ts'],
    rules: {
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }],
      '@typescript-eslint/no-non-null-assertion': 'error',
    },
  },
);
