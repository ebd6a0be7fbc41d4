/**
 * The layer rule (docs/architecture.md) is enforced by eslint's no-restricted-imports blocks in
 * eslint.config.mjs, and import circles between files by import-x/no-cycle. These cases prove the
 * rules can fail: snippets linted in memory, as if they were files of a library, with the
 * repository's own configuration (a circle needs its files on disk: no-cycle reads the other side).
 *
 * ESLint's Node API loads eslint.config.mjs with a dynamic import(), which Jest's module VM refuses
 * without --experimental-vm-modules; so the API runs in one plain node child for all the cases.
 * The type-aware rules are off for the snippets (they are not files of tsconfig.json); the layer
 * rule does not use types.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

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

interface LintMessage {
  ruleId: string | null;
  severity: number;
  message: string;
}

/** The messages of each snippet, in order. */
function lint(snippets: Snippet[]): LintMessage[][] {
  const stdout = execFileSync(process.execPath, ['-e', LINT_SNIPPETS], {
    cwd: root,
    input: JSON.stringify(snippets),
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as LintMessage[][];
}

const errorsOf = (ruleId: string, results: LintMessage[][]): string[][] =>
  results.map((messages) =>
    messages.filter((m) => m.ruleId === ruleId && m.severity === 2).map((m) => m.message),
  );

/** The no-restricted-imports errors of each snippet, in order. */
function restrictedImports(snippets: Snippet[]): string[][] {
  return errorsOf('no-restricted-imports', lint(snippets));
}

/**
 * The import circles among `files`, type-only imports and import() included: each a strongly
 * connected component of more than one file (Tarjan), module names resolved as tsc resolves them
 * (tsconfig.json's paths for the @ppfile aliases).
 */
function importCircles(files: string[]): string[][] {
  const { options } = ts.parseJsonConfigFileContent(
    ts.readConfigFile(path.join(root, 'tsconfig.json'), (f) => ts.sys.readFile(f)).config,
    ts.sys,
    root,
  );
  const known = new Set(files);
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file)!, true, true);
    imports.set(
      file,
      importedFiles
        .map((i) => ts.resolveModuleName(i.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
        .filter((f): f is string => f !== undefined && known.has(f)),
    );
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of imports.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1) circles.push(component.map((f) => path.relative(root, f)).sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
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

describe('no import circle between files (eslint import-x/no-cycle)', () => {
  let dir: string;
  let files: Record<'a' | 'b' | 'c' | 'd' | 'e', string>;
  let errors: string[][];

  beforeAll(() => {
    dir = mkdtempSync(path.join(root, 'test', 'tmp-circle-'));
    const sources = {
      a: "import { b } from './b';\nexport const a = (): unknown => b;\n",
      b: "import { a } from './a';\nexport const b = (): unknown => a;\n",
      // Only types cross: erased by the compiler, not a circle at run time, and no-cycle skips it.
      c: "import type { D } from './d';\nexport interface C {\n  d?: D;\n}\n",
      d: "import type { C } from './c';\nexport interface D {\n  c?: C;\n}\n",
      e: "import { a } from './a';\nexport const e = (): unknown => a;\n",
    };
    files = Object.fromEntries(
      Object.keys(sources).map((k) => [k, path.join(dir, `${k}.ts`)]),
    ) as typeof files;
    for (const [k, code] of Object.entries(sources)) writeFileSync(files[k as keyof typeof files], code);
    errors = errorsOf(
      'import-x/no-cycle',
      lint([
        { filePath: files.a, code: sources.a },
        { filePath: files.c, code: sources.c },
        { filePath: files.e, code: sources.e },
      ]),
    );
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects two files importing each other', () => {
    expect(errors[0]).toEqual([expect.stringContaining('Dependency cycle')]);
  });

  it('accepts a file importing into a circle it is not part of', () => {
    expect(errors[2]).toEqual([]);
  });

  it('does not see a circle of type-only imports; the graph below does', () => {
    expect(errors[1]).toEqual([]);
    expect(importCircles(Object.values(files))).toEqual([
      [files.a, files.b].map((f) => path.relative(root, f)),
      [files.c, files.d].map((f) => path.relative(root, f)),
    ]);
  });

  it("leaves no circle among the project's files, type-only imports and import() included", () => {
    const project = ts.getParsedCommandLineOfConfigFile(
      path.join(root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => undefined,
      },
    )!;
    // Prisma's client is generated (npm run db:generate, ignored by git and eslint): its models
    // import one another's types, and it is not ours to change.
    const generated = path.join(root, 'libs/db/src/generated') + path.sep;
    const sources = project.fileNames.filter((f) => !f.startsWith(dir) && !f.startsWith(generated));
    expect(sources.length).toBeGreaterThan(100);
    expect(importCircles(sources)).toEqual([]);
  });
});
