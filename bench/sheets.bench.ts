/**
 * Benchmark of the spreadsheet operations (issue 21). One run prints, each phase in its own child
 * process so that its peak RSS is its own:
 *   (a) import of a 50,000-row XLSX (training organization, adf; the template filled with date cells
 *       and numeric NIRs), read from disk, imported, validated and generated — the whole of
 *       `ppfile import FILE.xlsx --generate` without the process start;
 *   (b) validate of the 50,000-row official CSV (from memory), and (c) fix of the same CSV, written
 *       with ISO dates and lower-case enumerations so that every row changes — target (c) ≤ 1.5 × (b);
 *       the fix as `ppfile fix -o` makes it (fixCsvFile: the fixed file's bytes) and as the HTTP
 *       answer holds it (fixCsv: a string of them), then both again on the file already fixed;
 *   (d) the whole processes: `ppfile import FILE.xlsx --generate -o …`, `ppfile validate FILE.csv`
 *       and `ppfile fix FILE.csv -o …`, start to exit, peak RSS from the child itself.
 * In-process times are the median of REPEAT runs after WARMUP; peak RSS is that of one run alone.
 *
 * Run: npm run bench:sheets   (figures go to stdout)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fixCsv, fixCsvFile, generateFile, resolveKind, validateCsv } from '@ppfile/rules';
import { FORMACODES, NSF_CODES, ROME_CODES, SIRET_A, testReferences } from '@ppfile/rules/testing/fixtures';
import { nirKey } from '@ppfile/rules/values/nir';
import { dayToSerial, importSheet, templateSheets, writeWorkbook, type CellInput } from '@ppfile/sheets';

const ROWS = 50_000;
const PER_DECLARATION = 500;
const TODAY = 20261122;
const OUT = path.resolve(__dirname, '../../bench/out');
const XLSX_FILE = path.join(OUT, 'bench-adf-of-50000.xlsx');
const CSV_FILE = path.join(OUT, 'bench-adf-of-50000-iso.csv');
/** The same rows as the official file writes them: nothing for the fix to change. */
const CLEAN_FILE = path.join(OUT, 'bench-adf-of-50000-clean.csv');
/** In-process runs: the first WARMUP of each child are not counted (a gateway or worker runs warm). */
const WARMUP = 2;
const REPEAT = 7;
/** The built CLI, and a hook that writes the peak RSS of the process it is loaded in when it exits. */
const CLI = path.resolve(__dirname, '../apps/cli/src/main.js');
const RSS_HOOK = path.join(OUT, 'report-rss.js');
const RSS_FILE = path.join(OUT, 'rss.txt');
const CLI_OUT = path.join(OUT, 'cli-output');
const KIND = { type: 'adf', declarant: 'training_organization' } as const;

type Phase =
  | 'import-xlsx'
  | 'validate-csv'
  | 'fix-csv'
  | 'fix-csv-string'
  | 'validate-clean'
  | 'fix-clean'
  | 'fix-clean-string';
type ProcessPhase = 'cli-import' | 'cli-validate' | 'cli-fix';
interface Measure {
  phase: Phase;
  ms: number[];
  maxRssMb: number;
  note: string;
}

function nirOf(n: number): string {
  return `${1 + (n % 2)}${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`;
}

/** The template's rows for 100 sessions of 500 trainees; the official CSV of the same, with ISO dates. */
function prepare(): void {
  mkdirSync(OUT, { recursive: true });
  const input = templateSheets(resolveKind(KIND, 'en'));
  const rows = input.sheets[0]!.rows;
  const csv: string[] = [];
  const columns = resolveKind(KIND, 'en').spec.tables.adf.columns;
  csv.push(columns.map((c) => c.name).join('|'));
  let n = 0;
  for (let d = 0; d < ROWS / PER_DECLARATION; d++) {
    const session = `SESSION-2026-${String(d).padStart(4, '0')}`;
    // 3 to 6 codes: the first six test ROME codes are in the shipped list too (the whole-process runs).
    const rome = ROME_CODES.slice(0, 3 + (d % 4)).join('/');
    const formacodes = FORMACODES.slice(0, 1 + (d % 5)).join('/');
    const nsf = NSF_CODES.slice(1, 2 + (d % 3)).join('/');
    for (let h = 0; h < PER_DECLARATION; h++, n++) {
      const nir = nirOf(n);
      const cells: Record<string, CellInput> = {
        ID_DECLARATION: session,
        REFERENCE_DECLARATION: `Session SST groupe ${d}`,
        ID_UNIQUE_PARTENAIRE: `S2026-${String(d).padStart(4, '0')}-E${String(n).padStart(6, '0')}`,
        NOM_FORMATION: `Sauveteur secouriste du travail — session ${d}`,
        DATE_DEBUT_FORMATION: { date: dayToSerial(20260914) },
        DATE_FIN_FORMATION: { date: dayToSerial(20260915) },
        MODALITE_DISPENSE: 'PRESENTIEL',
        COMPETENCE_TRANSFERABLE: rome,
        QUALIFICATION_FORMATEUR: 'FORMATEUR_D_ADULTES_FORMATION_SPECIALISEE',
        FORMATION_CERTIFIANTE: 'NON',
        DOMAINE_FORMATION: formacodes,
        SPECIALITE_FORMATION: nsf,
        NIR: n % 10 === 0 ? Number(`${nir}${nirKey(nir)}`) : Number(nir),
        NOM_TITULAIRE: `NOM-${n % 997}`,
        PRESENCE_EMPLOYEUR: 'OUI',
        SIRET_EMPLOYEUR: { text: SIRET_A },
        REFERENCE_EMPLOYEUR: `CLIENT-${String(n % 3000).padStart(5, '0')}`,
        DATE_DEBUT_VALIDITE: { date: dayToSerial(20260915) },
        DATE_FIN_VALIDITE: { date: dayToSerial(20280915) },
      };
      rows.push(columns.map((c) => cells[c.name] ?? null));
      csv.push(
        columns
          .map((c) => {
            const v = cells[c.name];
            if (v === undefined || v === null) return '';
            // ISO dates where the fix rewrites them; the other dates as the file wants them.
            if (c.name === 'DATE_DEBUT_FORMATION') return '2026-09-14';
            if (c.name === 'DATE_DEBUT_VALIDITE') return '2026-09-15';
            if (typeof v === 'object' && 'date' in v) {
              return c.name === 'DATE_FIN_FORMATION' ? '15/09/2026' : '15/09/2028';
            }
            if (typeof v === 'object' && 'text' in v) return v.text;
            if (c.name === 'MODALITE_DISPENSE') return 'presentiel';
            return typeof v === 'object' ? '' : String(v);
          })
          .join('|'),
      );
    }
  }
  writeFileSync(XLSX_FILE, writeWorkbook(input));
  writeFileSync(CSV_FILE, csv.map((l) => `${l}\r\n`).join(''));
  const clean = fixCsv(readFileSync(CSV_FILE), KIND, { refs: testReferences(), today: TODAY }).content!;
  writeFileSync(CLEAN_FILE, clean);
  writeFileSync(
    RSS_HOOK,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(RSS_FILE)}, String(process.resourceUsage().maxRSS)));\n`,
  );
}

const KIND_ARGS = ['--type', KIND.type, '--declarant', KIND.declarant, '--today', '2026-11-22'];

/** One CLI run, start to exit: wall time and the child's own peak RSS. */
function runProcess(phase: ProcessPhase): { ms: number; maxRssMb: number; status: number | null } {
  const args: Record<ProcessPhase, string[]> = {
    'cli-import': ['import', XLSX_FILE, '--generate', '-o', CLI_OUT, ...KIND_ARGS],
    'cli-validate': ['validate', CSV_FILE, ...KIND_ARGS],
    'cli-fix': ['fix', CSV_FILE, '-o', CLI_OUT, ...KIND_ARGS],
  };
  rmSync(RSS_FILE, { force: true });
  const t0 = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['-r', RSS_HOOK, CLI, ...args[phase]], { stdio: 'ignore' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms, maxRssMb: Number(readFileSync(RSS_FILE, 'utf8')) / 1024, status: child.status };
}

function time(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function runPhase(phase: Phase, repeat: number): void {
  const refs = testReferences();
  const env = { refs, today: TODAY };
  const ms: number[] = [];
  let note = '';
  for (let i = 0; i < repeat; i++) {
    switch (phase) {
      case 'import-xlsx':
        ms.push(
          time(() => {
            const bytes = readFileSync(XLSX_FILE);
            const r = importSheet(bytes, { ...KIND, filename: 'bench.xlsx' }, env);
            const f = generateFile(r.body, env);
            note = `rows=${r.rows_read} declarations=${r.declarations} valid=${r.validation.valid} issues=${r.issue_count} csv=${f.content.length} B`;
          }),
        );
        break;
      case 'validate-csv': {
        const bytes = readFileSync(CSV_FILE);
        ms.push(
          time(() => {
            const r = validateCsv(bytes, KIND, env);
            note = `rows=${r.rows_total} valid=${r.valid} errors=${r.error_count}`;
          }),
        );
        break;
      }
      case 'validate-clean': {
        const bytes = readFileSync(CLEAN_FILE);
        ms.push(
          time(() => {
            const r = validateCsv(bytes, KIND, env);
            note = `rows=${r.rows_total} valid=${r.valid} errors=${r.error_count}`;
          }),
        );
        break;
      }
      case 'fix-clean':
      case 'fix-csv': {
        const bytes = readFileSync(phase === 'fix-csv' ? CSV_FILE : CLEAN_FILE);
        ms.push(
          time(() => {
            const r = fixCsvFile(bytes, KIND, env);
            note = `changes=${r.change_count} fixed=${r.fixed?.length} B valid=${r.validation.valid}`;
          }),
        );
        break;
      }
      case 'fix-clean-string':
      case 'fix-csv-string': {
        const bytes = readFileSync(phase === 'fix-csv-string' ? CSV_FILE : CLEAN_FILE);
        ms.push(
          time(() => {
            const r = fixCsv(bytes, KIND, env);
            note = `changes=${r.change_count} content=${r.content?.length} chars valid=${r.validation.valid}`;
          }),
        );
        break;
      }
    }
  }
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`${JSON.stringify({ phase, ms, maxRssMb, note } satisfies Measure)}\n`);
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function main(): void {
  const phaseArg = process.argv[2] as Phase | undefined;
  if (phaseArg) return runPhase(phaseArg, Number(process.argv[3]));
  prepare();
  const run = (phase: Phase, repeat: number): Measure => {
    const child = spawnSync(process.execPath, [__filename, phase, String(repeat)], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`phase ${phase} failed: ${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').pop()!) as Measure;
  };
  const results = new Map<Phase, Measure>();
  const phases: Phase[] = [
    'import-xlsx',
    'validate-csv',
    'fix-csv',
    'fix-csv-string',
    'validate-clean',
    'fix-clean',
    'fix-clean-string',
  ];
  for (const phase of phases) {
    const measured = run(phase, WARMUP + REPEAT);
    results.set(phase, { ...measured, ms: measured.ms.slice(WARMUP), maxRssMb: run(phase, 1).maxRssMb });
  }
  const processes = new Map<ProcessPhase, { ms: number[]; maxRssMb: number; status: number | null }>();
  for (const phase of ['cli-import', 'cli-validate', 'cli-fix'] as ProcessPhase[]) {
    const runs = Array.from({ length: REPEAT }, () => runProcess(phase));
    processes.set(phase, {
      ms: runs.map((r) => r.ms),
      maxRssMb: Math.max(...runs.map((r) => r.maxRssMb)),
      status: runs[0]!.status,
    });
  }
  const xlsxMb = readFileSync(XLSX_FILE).length / 1e6;
  const csvMb = readFileSync(CSV_FILE).length / 1e6;
  console.log(
    `spreadsheets: ${ROWS} rows — XLSX ${xlsxMb.toFixed(1)} MB, CSV ${csvMb.toFixed(1)} MB (node ${process.version})`,
  );
  for (const [phase, m] of [...results, ...processes]) {
    const note = 'note' in m ? m.note : `exit status ${m.status}`;
    console.log(
      `${phase.padEnd(16)} median ${median(m.ms).toFixed(0).padStart(6)} ms (min ${Math.min(...m.ms).toFixed(0)}, max ${Math.max(...m.ms).toFixed(0)})  peak RSS ${m.maxRssMb.toFixed(0).padStart(4)} MB  ${note}`,
    );
  }
  const ratio = (fix: Phase, validate: Phase) =>
    (median(results.get(fix)!.ms) / median(results.get(validate)!.ms)).toFixed(2);
  const wholeRatio = (
    median(processes.get('cli-fix')!.ms) / median(processes.get('cli-validate')!.ms)
  ).toFixed(2);
  console.log(
    `fix / validate, every row changed: ${ratio('fix-csv', 'validate-csv')} × (bytes), ${ratio('fix-csv-string', 'validate-csv')} × (string), ${wholeRatio} × (whole process); nothing to change: ${ratio('fix-clean', 'validate-clean')} × (bytes), ${ratio('fix-clean-string', 'validate-clean')} × (string); target ≤ 1.5 ×`,
  );
}

main();
