/**
 * Issue 35, item 7, sized for CI: the harness of `npm run bench:scale` (bench/scale-harness.ts) for a
 * few seconds instead of 60 — 2 gateways, a generate pool of 2 workers and a validate pool of 2, s3rver,
 * each a process in its own group (stopped by group in afterAll, whatever happened), over a database of
 * this file's own, under mixed traffic of four organizations — and its three checks: no 5xx answer,
 * units exact per organization, `ppfile admin reconcile --check` clean. The apps' log lines go to the
 * suite's audit (JSON, no NIR, birth name or key). The figures are the benchmark's, not asserted here.
 */
import { describeScale, ScaleRun, type ScaleReport } from '../bench/scale-harness';
import { createTestDatabase, type TestDatabase } from './support/database';
import { suiteLogs } from './support/logs';
import { assertBuilt, GATEWAY_MAIN, WORKER_MAIN } from './support/worker';
import { ROOT } from '../bench/support';
import * as path from 'node:path';

const SECONDS = Number(process.env.PPFILE_SCALE_SECONDS ?? 10);

describe('2 gateways and 2 worker pools under mixed traffic of several organizations', () => {
  let db: TestDatabase | undefined;
  let run: ScaleRun | undefined;
  let report: ScaleReport;

  beforeAll(async () => {
    assertBuilt('gateway', GATEWAY_MAIN);
    assertBuilt('worker', WORKER_MAIN);
    assertBuilt('cli', path.join(ROOT, 'dist/cli/apps/cli/src/main.js'));
    db = await createTestDatabase();
    const phases: string[] = [];
    run = new ScaleRun({
      seconds: SECONDS,
      clients: 6,
      // 6 apps of 3 connections: PostgreSQL's 100 are shared with the files running beside this one.
      poolMax: 3,
      databaseUrl: db.url,
      onOutput: (c) => suiteLogs.feed(c),
      log: (line) => phases.push(line),
    });
    report = await run.run();
    // The figures and the phases' times, for whoever reads the log of a failure.
    process.stdout.write(`${[...phases, ...describeScale(report)].join('\n')}\n`);
  }, 240_000);

  afterAll(async () => {
    await run?.destroy();
    await db?.drop();
  });

  const check = (name: string) => report.checks.find((c) => c.name === name)!;

  it('answers no request 5xx, and every request is answered', () => {
    expect(report.serverErrors).toEqual([]);
    expect(check('no 5xx answer').ok).toBe(true);
  });

  it('commits per organization exactly the units its successful answers charged, nothing left reserved', () => {
    expect(report.units.filter((u) => !u.ok)).toEqual([]);
    // Something was charged, live and test alike: the check compared real traffic.
    expect(report.units.every((u) => u.charged.live > 0)).toBe(true);
    expect(report.units[0]!.charged.test).toBeGreaterThan(0);
  });

  it('leaves `ppfile admin reconcile --check` clean', () => {
    expect(report.reconcile).toEqual({ ok: true, output: expect.stringContaining('"violations": []') });
  });

  it('fails no file, keeps every download intact, and no app dies', () => {
    expect(report.problems).toEqual([]);
  });

  it('took every path: each operation answered 2xx, both gateways, both pools', () => {
    const ok = (op: string) => {
      const o = report.operations.find((x) => x.operation === op);
      return Object.entries(o?.statuses ?? {}).some(([s, n]) => s.startsWith('2') && n > 0);
    };
    for (const op of [
      'validate-json',
      'validate-csv',
      'validate-csv-queued',
      'fix-csv',
      'import',
      'import-queued',
      'generate',
      'generate-replay',
      'generate-queued',
      'generate-async',
      'generate-test-key',
      'file-status',
      'download',
    ])
      expect([op, ok(op)]).toEqual([op, true]);
    expect(report.gateways.every((n) => n > 0)).toBe(true);
    const jobs = (pool: string, job: string) =>
      report.jobs.filter((j) => j.worker.startsWith(pool)).reduce((sum, j) => sum + (j.jobs[job] ?? 0), 0);
    expect(jobs('generate', 'generate')).toBeGreaterThan(0);
    expect(jobs('validate', 'validate-file')).toBeGreaterThan(0);
    expect(jobs('validate', 'import-sheet')).toBeGreaterThan(0);
    // Each pool took only its queues.
    expect(jobs('generate', 'validate-file') + jobs('generate', 'import-sheet')).toBe(0);
    expect(jobs('validate', 'generate')).toBe(0);
  });
});
