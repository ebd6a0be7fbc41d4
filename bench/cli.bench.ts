/**
 * Benchmark of `ppfile validate` as a whole process (issue 35, item 6 "The CLI's validate"): a
 * 50,000-row official CSV (a training organization's adf, 100 sessions of 500, as the generator
 * writes it; every code in the shipped lists), validated by the built CLI from its start to its
 * exit, against bare Node scripts over the same file:
 *   (a) read + split lines: `readFileSync(file, 'utf8').split('\r\n')`;
 *   (a') read + split lines and cells: the same, then each line split on `|`;
 *   (b) `node bin/ppfile.js validate FILE --type adf --declarant training_organization --today …`.
 * The runs alternate (a, a', b, a, a', b, …) so that the machine's drift touches each alike; each
 * figure is the median of RUNS with its min–max. Peak RSS is each child's own (a hook loaded with
 * -r writes process.resourceUsage().maxRSS when it exits). Targets: (b) ≤ 1.5 × (a), ≤ 100 MiB.
 *
 * With BENCH_OLD=<a checkout with its dist/ built> (e.g. the previous commit, `git worktree add`
 * then `npm run build:cli` there), its CLI is run too, in turn with this one: (b_old).
 *
 * Run: npm run bench:cli   (figures go to stdout; docs/benchmarks.md records them)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { generateFile } from '@ppfile/rules';
import { testReferences } from '@ppfile/rules/testing/fixtures';
import { largeAdfBody } from './bodies';

const ROWS = 50_000;
const TODAY = 20261122;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const ROOT = path.resolve(__dirname, '../../..');
const OUT = path.join(ROOT, 'bench/out');
const CSV_FILE = path.join(OUT, 'cli-adf-of-50000.csv');
const BARE_LINES = path.join(OUT, 'bare-read-split-lines.js');
const BARE_CELLS = path.join(OUT, 'bare-read-split-cells.js');
const RSS_HOOK = path.join(OUT, 'cli-report-rss.js');
const RSS_FILE = path.join(OUT, 'cli-rss.txt');
const VALIDATE_ARGS = ['validate', CSV_FILE, '--type', 'adf', '--declarant', 'training_organization'];

function prepare(): void {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    CSV_FILE,
    generateFile(largeAdfBody(ROWS, 4), { refs: testReferences(), today: TODAY }).content,
  );
  writeFileSync(
    BARE_LINES,
    `const lines = require('fs').readFileSync(process.argv[2], 'utf8').split('\\r\\n');\n` +
      `process.stdout.write(lines.length + '\\n');\n`,
  );
  writeFileSync(
    BARE_CELLS,
    `const lines = require('fs').readFileSync(process.argv[2], 'utf8').split('\\r\\n');\n` +
      `let cells = 0;\nfor (const line of lines) cells += line.split('|').length;\n` +
      `process.stdout.write(lines.length + ' ' + cells + '\\n');\n`,
  );
  writeFileSync(
    RSS_HOOK,
    `process.on('exit', () => { const u = process.resourceUsage(); require('fs').writeFileSync(${JSON.stringify(RSS_FILE)}, JSON.stringify([u.maxRSS, (u.userCPUTime + u.systemCPUTime) / 1000])); });\n`,
  );
}

interface Run {
  /** Wall time, start to exit, as the parent sees it. */
  ms: number;
  /** User + system CPU time of the child: what a busy machine inflates least. */
  cpuMs: number;
  mib: number;
  status: number | null;
  out: string;
}

function run(args: string[]): Run {
  rmSync(RSS_FILE, { force: true });
  const t0 = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['-r', RSS_HOOK, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const [maxRss, cpuMs] = JSON.parse(readFileSync(RSS_FILE, 'utf8')) as [number, number];
  return { ms, cpuMs, mib: maxRss / 1024, status: child.status, out: child.stdout };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function main(): void {
  prepare();
  const today = `--today=${String(TODAY).slice(0, 4)}-${String(TODAY).slice(4, 6)}-${String(TODAY).slice(6)}`;
  const commands: [string, string[]][] = [
    ['(a) read + split lines', [BARE_LINES, CSV_FILE]],
    ["(a') read + split lines and cells", [BARE_CELLS, CSV_FILE]],
    ['(b) ppfile validate', [path.join(ROOT, 'bin/ppfile.js'), ...VALIDATE_ARGS, today]],
  ];
  const old = process.env.BENCH_OLD;
  if (old)
    commands.push([
      '(b_old) ppfile validate, BENCH_OLD',
      [path.join(old, 'bin/ppfile.js'), ...VALIDATE_ARGS, today],
    ]);
  const runs = commands.map(() => [] as Run[]);
  // One warm-up round (file cache), not counted.
  for (const [, args] of commands) run(args);
  for (let i = 0; i < RUNS; i++) commands.forEach(([, args], c) => runs[c]!.push(run(args)));

  const size = readFileSync(CSV_FILE).length;
  console.log(
    `ppfile validate, whole process — Node ${process.version}, ${ROWS} rows, ${(size / 1e6).toFixed(1)} MB, ${RUNS} runs in turn`,
  );
  const spread = (values: number[], digits = 0) =>
    `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  commands.forEach(([label], c) => {
    const r = runs[c]!;
    console.log(
      `${label.padEnd(40)} wall ${spread(r.map((x) => x.ms))} ms  cpu ${spread(r.map((x) => x.cpuMs))} ms` +
        `  peak RSS ${spread(
          r.map((x) => x.mib),
          1,
        )} MiB  exit ${[...new Set(r.map((x) => x.status))].join(',')}`,
    );
  });
  // Ratios pair by pair (run i of each), then their median and spread.
  const ratio = (c: number, base: number) => {
    const of = (key: 'ms' | 'cpuMs') =>
      spread(
        runs[c]!.map((x, i) => x[key] / runs[base]![i]![key]),
        2,
      );
    return `wall ${of('ms')} ×, cpu ${of('cpuMs')} ×`;
  };
  console.log(`(b)/(a): ${ratio(2, 0)}; (b)/(a'): ${ratio(2, 1)}; target ≤ 1.5 ×`);
  if (old) {
    console.log(`(b_old)/(a): ${ratio(3, 0)}; (b)/(b_old): ${ratio(2, 3)}`);
    if (runs[2]![0]!.out !== runs[3]![0]!.out) console.log('the two builds PRINTED DIFFERENT ANSWERS');
  }
}

main();
