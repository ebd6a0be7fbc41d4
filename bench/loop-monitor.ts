/**
 * Preloaded into the gateway by bench/eventloop.bench.ts (NODE_OPTIONS=--require): each turn of the
 * event loop that took more than 10 ms, with the time the main thread spent on a CPU during it
 * (/proc/self/task/<pid>/schedstat), one line `<epoch ms> <wall ms> <cpu ms>` appended to
 * BENCH_LOOP_FILE. On a shared machine the wall time of a turn includes waiting for a CPU; its CPU
 * time is what the turn itself costs, what it would hold a quiet machine.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_LOOP_FILE;
if (isMainThread && file) {
  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  const cpuMs = () => Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
  let wall = performance.now();
  let cpu = cpuMs();
  const check = () => {
    const nowWall = performance.now();
    const nowCpu = cpuMs();
    if (nowWall - wall > 10)
      appendFileSync(file, `${Date.now()} ${(nowWall - wall).toFixed(1)} ${(nowCpu - cpu).toFixed(1)}\n`);
    wall = performance.now();
    cpu = cpuMs();
    setTimeout(check, 1).unref();
  };
  setTimeout(check, 1).unref();
}
