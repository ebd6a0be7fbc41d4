/**
 * `npm run bench:scale` (issue 35, item 7): the service as it scales out — 2 gateways, a generate pool
 * of 2 workers and a validate pool of 2, s3rver, each a process of its own, over one fresh PostgreSQL
 * database and the machine's Redis — under BENCH_SECONDS (60) of mixed traffic from several
 * organizations (bench/scale-harness.ts says which). Prints throughput and p50/p99 per operation, the
 * CPU of each process per 1,000 requests (PostgreSQL's first), then the checks: no 5xx answer, units
 * exact per organization, `ppfile admin reconcile --check` clean. Exits 1 when a check fails.
 *
 * BENCH_CLIENTS (12) clients at once; BENCH_DATABASE_URL names the server (a database is made on it
 * for the run and dropped after). test/scale.e2e-spec.ts runs the same harness for a few seconds.
 */
import { ScaleRun, describeScale } from './scale-harness';

/** Set by a stop (Ctrl-C, SIGTERM): the run is being torn down, and the process exits once it is. */
let stopped = false;

async function main(): Promise<number> {
  const run = new ScaleRun({
    seconds: Number(process.env.BENCH_SECONDS ?? 60),
    clients: Number(process.env.BENCH_CLIENTS ?? 12),
    log: (line) => console.error(`scale: ${line}`),
  });
  // Every process group the run started, its Redis keys and its database go too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      stopped = true;
      console.error(`scale: ${signal}, stopping what the run started`);
      void run.destroy().finally(() => process.exit(130));
    });
  const report = await run.run();
  for (const line of describeScale(report)) console.log(line);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    // A run torn down by a stop fails on its way out: the stop's exit follows.
    if (stopped) return;
    console.error(`bench failed: ${e.stack ?? e.message}`);
    process.exit(1);
  },
);
