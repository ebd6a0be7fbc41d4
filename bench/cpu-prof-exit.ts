/**
 * Preloaded into the gateway by bench/http.bench.ts when BENCH_CPU_PROF is set (with --cpu-prof):
 * Node writes the profile only when the process exits by itself, but Nest's shutdown hook ends by
 * killing its own process with the signal it received. This listener stays registered, so that
 * second SIGTERM reaches it instead, and it exits normally: the .cpuprofile is written.
 */
let signals = 0;
process.on('SIGTERM', () => {
  if (++signals > 1) process.exit(0);
  // Nest handles the first one; should it not re-send it, exit anyway once it had time to close.
  setTimeout(() => process.exit(0), 10_000).unref();
});
