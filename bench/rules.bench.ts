/**
 * Benchmark of the rules library (issue: rules library, deliverable 6). One run prints, for a
 * 50,000-row official CSV (~15 MB) and a 50,000-holder JSON body:
 *   (a) a bare csv-parse pass over the same bytes,
 *   (b) ppfile's full validation of the file (streamed from disk in 1 MiB chunks, as the CLI does,
 *       and from one in-memory buffer, as an upload arrives),
 *   (c) generation from the JSON (from the parsed object, and including JSON.parse).
 * Each measurement runs in its own child process so that its peak RSS is its own.
 * Targets: (b) ≤ 2.0 × (a) and ≤ 150 MB peak RSS; (c) ≤ 300 ms.
 *
 * Run: npm run bench   (figures go to stdout; docs/benchmarks.md records them)
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse as csvParse } from 'csv-parse/sync';
import { createCsvValidator, generateFile, validateCsv } from '@ppfile/rules';
import { testReferences } from '@ppfile/rules/testing/fixtures';
import { largeAdfBody } from './bodies';

const ROWS = 50_000;
const TODAY = 20261122;
const OUT = path.resolve(__dirname, '../../bench/out');
const CSV_FILE = path.join(OUT, 'bench-adf-of-50000.csv');
const JSON_FILE = path.join(OUT, 'bench-adf-of-50000.json');
const REPEAT = 5;

type Phase = 'csv-parse' | 'validate-stream' | 'validate-buffer' | 'generate' | 'generate-with-parse';

interface Measure {
  phase: Phase;
  ms: number[];
  maxRssMb: number;
  note: string;
}

function prepare(): void {
  mkdirSync(OUT, { recursive: true });
  const body = largeAdfBody(ROWS, 8);
  const file = generateFile(body, { refs: testReferences(), today: TODAY });
  writeFileSync(CSV_FILE, file.content);
  writeFileSync(JSON_FILE, JSON.stringify(body));
}

function time(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Child side: runs one phase REPEAT times, prints one JSON line. */
function runPhase(phase: Phase, repeat: number): void {
  const refs = testReferences();
  const ms: number[] = [];
  let note = '';
  for (let i = 0; i < repeat; i++) {
    switch (phase) {
      case 'csv-parse': {
        const bytes = readFileSync(CSV_FILE);
        ms.push(
          time(() => {
            const records = csvParse(bytes, {
              delimiter: '|',
              record_delimiter: '\r\n',
              quote: false,
              relax_column_count: true,
            });
            note = `${records.length - 1} records`;
          }),
        );
        break;
      }
      case 'validate-stream':
        ms.push(
          time(() => {
            const v = createCsvValidator(
              { type: 'adf', declarant: 'training_organization', filename: 'f.csv' },
              { refs, today: TODAY },
            );
            const fd = openSync(CSV_FILE, 'r');
            const chunk = Buffer.allocUnsafe(1 << 20);
            for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;) v.write(chunk.subarray(0, n));
            closeSync(fd);
            const r = v.end();
            note = `valid=${r.valid} rows=${r.rows_total} errors=${r.error_count} warnings=${r.warning_count}`;
          }),
        );
        break;
      case 'validate-buffer': {
        const bytes = readFileSync(CSV_FILE);
        ms.push(
          time(() => {
            const r = validateCsv(
              bytes,
              { type: 'adf', declarant: 'training_organization', filename: 'f.csv' },
              { refs, today: TODAY },
            );
            note = `valid=${r.valid} rows=${r.rows_total}`;
          }),
        );
        break;
      }
      case 'generate': {
        const body: unknown = JSON.parse(readFileSync(JSON_FILE, 'utf8'));
        ms.push(
          time(() => {
            const f = generateFile(body, { refs, today: TODAY });
            note = `rows=${f.rows} bytes=${f.content.length} normalizations=${f.normalization_count}`;
          }),
        );
        break;
      }
      case 'generate-with-parse': {
        const text = readFileSync(JSON_FILE, 'utf8');
        ms.push(
          time(() => {
            const f = generateFile(JSON.parse(text), { refs, today: TODAY });
            note = `rows=${f.rows}`;
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
  const size = readFileSync(CSV_FILE).length;
  const jsonSize = readFileSync(JSON_FILE).length;
  const phases: Phase[] = [
    'csv-parse',
    'validate-stream',
    'validate-buffer',
    'generate',
    'generate-with-parse',
  ];
  const results = new Map<Phase, Measure>();
  const run = (phase: Phase, repeat: number): Measure => {
    const child = spawnSync(process.execPath, [__filename, phase, String(repeat)], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error(`phase ${phase} failed: ${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').pop()!) as Measure;
  };
  // Times: median of REPEAT runs in one process. Peak RSS: a fresh process doing the work once,
  // since later repetitions only add garbage the collector has not yet returned.
  for (const phase of phases) results.set(phase, { ...run(phase, REPEAT), maxRssMb: run(phase, 1).maxRssMb });
  const line = (label: string, m: Measure): string =>
    `${label.padEnd(46)} median ${median(m.ms).toFixed(0).padStart(5)} ms  (min ${Math.min(...m.ms).toFixed(0)}, max ${Math.max(...m.ms).toFixed(0)})  peak RSS ${m.maxRssMb.toFixed(0).padStart(4)} MB  ${m.note}`;
  const a = results.get('csv-parse')!;
  const b = results.get('validate-stream')!;
  const bBuf = results.get('validate-buffer')!;
  const c = results.get('generate')!;
  const cParse = results.get('generate-with-parse')!;
  const ratio = median(b.ms) / median(a.ms);
  console.log(
    `ppfile rules benchmark — Node ${process.version}, ${ROWS} rows, CSV ${(size / 1e6).toFixed(1)} MB, JSON ${(jsonSize / 1e6).toFixed(1)} MB, ${REPEAT} runs each`,
  );
  console.log(line('(a) csv-parse (sync, no quoting), same bytes', a));
  console.log(line('(b) ppfile validation, streamed from disk', b));
  console.log(line("(b') ppfile validation, one in-memory buffer", bBuf));
  console.log(line('(c) ppfile generation from the parsed JSON', c));
  console.log(line("(c') ppfile generation including JSON.parse", cParse));
  console.log(
    `targets: (b)/(a) = ${ratio.toFixed(2)} (≤ 2.0) ${ratio <= 2 ? 'met' : 'MISSED'}; ` +
      `(b) peak RSS ${b.maxRssMb.toFixed(0)} MB (≤ 150) ${b.maxRssMb <= 150 ? 'met' : 'MISSED'}; ` +
      `(c) ${median(c.ms).toFixed(0)} ms (≤ 300) ${median(c.ms) <= 300 ? 'met' : 'MISSED'}`,
  );
}

main();
