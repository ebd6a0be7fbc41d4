/**
 * The layer rule (docs/architecture.md) is enforced by eslint's no-restricted-imports blocks in
 * eslint.config.mjs. These cases prove the blocks can fail: snippets linted in memory, as if they
 * were files of a library, with the repository's own configuration.
 *
 * ESLint's Node API loads eslint.config.mjs with a dynamic import(), which Jest's module VM refuses
 * without --experimental-vm-modules; so the API runs in one plain node child for all the cases.
 * The type-aware rules are off for the snippets (they are not files of tsconfig.json); the layer
 * rule does not use types.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');

interface Snippet {
  filePath: string;
  code: string;
}

const LINT_SNIPPETS = `
const { ESLint } = require('eslint');
const tseslint = require('typescript-eslint');
(async () => {
  const snippets = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
  // The snippets are not files of the TypeScript project: lint them without type information (the
  // layer rule needs none).
  const overrideConfig = [{ ...tseslint.configs.disableTypeChecked, files: ['**/*.ts'] }];
  const eslint = new ESLint({ cwd: process.cwd(), overrideConfig });
  const out = [];
  for (const { filePath, code } of snippets) {
    const [result] = await eslint.lintText(code, { filePath, warnIgnored: true });
    out.push(result.messages.map((m) => ({ ruleId: m.ruleId, severity: m.severity, message: m.message })));
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** The no-restricted-imports errors of each snippet, in order. */
function restrictedImports(snippets: Snippet[]): string[][] {
  const stdout = execFileSync(process.execPath, ['-e', LINT_SNIPPETS], {
    cwd: root,
    input: JSON.stringify(snippets),
    encoding: 'utf8',
  });
  const results = JSON.parse(stdout) as { ruleId: string | null; severity: number; message: string }[][];
  return results.map((messages) =>
    messages.filter((m) => m.ruleId === 'no-restricted-imports' && m.severity === 2).map((m) => m.message),
  );
}

describe('the layer rule (eslint no-restricted-imports)', () => {
  let errors: string[][];

  beforeAll(() => {
    errors = restrictedImports([
      {
        filePath: 'libs/db/src/x.ts',
        code: "import { parseRequest } from '@ppfile/rules';\nexport const f = parseRequest;\n",
      },
      {
        filePath: 'libs/rules/src/x.ts',
        code: "import { Module } from '@nestjs/common';\nexport const m = Module;\n",
      },
      {
        filePath: 'libs/jobs/src/x.ts',
        code: "import { FileStore } from '@ppfile/db';\nexport const s = FileStore;\n",
      },
      {
        filePath: 'libs/jobs/src/deep/x.ts',
        code: "import { FileStore } from '../../../db/src';\nexport const s = FileStore;\n",
      },
      {
        filePath: 'apps/gateway/src/x.ts',
        code: "import { Reconciler } from '../../worker/src/reconciler';\nexport const r = Reconciler;\n",
      },
      {
        filePath: 'libs/rules/src/x.spec.ts',
        code: "import { REQUEST_ERROR_STATUS } from '@ppfile/contract';\nexport const s = REQUEST_ERROR_STATUS;\n",
      },
      {
        filePath: 'libs/sheets/src/x.ts',
        code: "import { readFileSync } from 'node:fs';\nimport { errorBody } from '@ppfile/contract';\nexport const r = [readFileSync, errorBody];\n",
      },
      {
        filePath: 'libs/sheets/src/x.ts',
        code: "import { importSheet } from './importer';\nimport { fixCsv } from '@ppfile/rules';\nexport const r = [importSheet, fixCsv];\n",
      },
      {
        filePath: 'libs/infra/src/x.ts',
        code: "import { DashboardModule } from '@ppfile/dashboard';\nexport const m = DashboardModule;\n",
      },
      {
        filePath: 'apps/worker/src/x.ts',
        code: "import { DashboardModule } from '@ppfile/dashboard';\nexport const m = DashboardModule;\n",
      },
      {
        filePath: 'apps/gateway/src/x.ts',
        code: "import { DashboardModule } from '@ppfile/dashboard';\nexport const m = DashboardModule;\n",
      },
      {
        filePath: 'libs/dashboard/src/x.ts',
        code: "import { Clock } from '@ppfile/infra';\nimport { GATEWAY_CONFIG } from '../../../apps/gateway/src/config';\nexport const r = [Clock, GATEWAY_CONFIG];\n",
      },
    ]);
  }, 60_000);

  it('rejects an upward import: libs/db importing @ppfile/rules', () => {
    expect(errors[0]).toEqual([expect.stringContaining('libs/db is layer 2')]);
  });

  it('rejects a framework import in libs/rules: @nestjs/common', () => {
    expect(errors[1]).toEqual([expect.stringContaining('libs/rules (layer 0) is pure')]);
  });

  it('accepts a downward import: libs/jobs importing @ppfile/db', () => {
    expect(errors[2]).toEqual([]);
  });

  it('rejects a relative path climbing out of a library', () => {
    expect(errors[3]).toEqual([expect.stringContaining('climbs out of libs/jobs')]);
  });

  it('rejects an app importing another app', () => {
    expect(errors[4]).toEqual([expect.stringContaining('an app never imports another app')]);
  });

  it('exempts tests: a rules spec may import @ppfile/contract', () => {
    expect(errors[5]).toEqual([]);
  });

  it('keeps libs/sheets (layer 1) pure and beside libs/contract: no node:fs, no @ppfile/contract; rules allowed', () => {
    expect(errors[6]).toEqual([
      expect.stringContaining('libs/sheets (layer 1) reads and writes bytes in memory'),
      expect.stringContaining('libs/sheets is layer 1'),
    ]);
    expect(errors[7]).toEqual([]);
  });

  it('keeps libs/dashboard (layer 5) on top, imported by the gateway only, and out of apps/', () => {
    expect(errors[8]).toEqual([expect.stringContaining('libs/infra is layer 4')]);
    expect(errors[9]).toEqual([expect.stringContaining('libs/dashboard is imported only by apps/gateway')]);
    expect(errors[10]).toEqual([]);
    expect(errors[11]).toEqual([expect.stringContaining('climbs out of libs/dashboard')]);
  });
});
