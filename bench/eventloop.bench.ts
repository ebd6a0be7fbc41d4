/**
 * Does a free endpoint starve the others? (issue "Hostile input and abuse", row 7.) One gateway
 * process; a Pro key sends 50,000-holder bodies to POST /v1/declarations/validate, four at a time
 * without pause (more than the plan's 300 a minute allows: the rate limit is scaled up), while
 * another key reads GET /v1/spec every 50 ms. Prints the /v1/spec latency (p50, p99, max) with the
 * rules run inline on the event loop (RULES_THREADS=0) and in the rules threads (default), the
 * latter also with the bodies sent chunked and gzipped (issue 19: those were parsed on the event loop).
 * Target: /v1/spec p99 < 20 ms with the threads.
 *
 * Part 2 (issue 32: "a 50,000-row chunked validate still holds /health/live 170 ms"): one large
 * request at a time — declaration bodies sent with a length, chunked, gzipped; CSV files validated
 * and fixed in the gateway, and one validated by a worker — while /health/live is asked back to back.
 * Prints, per round, the longest /health/live answer and the longest turn of the gateway's event loop
 * with the CPU time its main thread spent in it (loop-monitor.ts, preloaded into the gateway: on a
 * shared machine a turn's wall time includes waiting for a CPU). Target: ≤ 100 ms.
 *
 * Needs PostgreSQL and Redis and a built gateway and worker: npm run bench:eventloop
 * (BENCH_PART=throughput or stalls for one part; BENCH_ONLY=<pattern> for some requests of part 2).
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { createPrismaClient, createStores, migrate } from '@ppfile/db';
import { generateFile } from '@ppfile/rules';
import { testReferences, validBody } from '@ppfile/rules/testing/fixtures';
import { benchServices, DB_URL, GATEWAY, sessionsBody, startProcess, stopProcess, WORKER } from './support';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
/** How the bodies are sent: with a Content-Length, chunked (no length), or gzipped. */
type Framing = 'length' | 'chunked' | 'gzip';

function bigBody(): string {
  const b = validBody('adf', 'training_organization', 500) as { declarations: Record<string, unknown>[] };
  const declaration = b.declarations[0]!;
  const declarations = Array.from({ length: 100 }, (_, d) => ({
    ...declaration,
    id: `BENCH-${d}`,
    holders: (declaration.holders as Record<string, unknown>[]).map((h, i) => {
      const n = d * 500 + i;
      return {
        ...h,
        unique_id: `B-${n}`,
        nir: `2${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`,
      };
    }),
  }));
  return JSON.stringify({ ...b, declarations });
}

const pct = (v: number[], p: number) =>
  [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor((v.length * p) / 100))]!;

/** POST /v1/declarations/validate with the body framed as asked. */
function postValidate(base: string, key: string, body: Uint8Array, framing: Framing): Promise<Response> {
  return fetch(`${base}/v1/declarations/validate`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(framing === 'gzip' ? { 'content-encoding': 'gzip' } : {}),
    },
    // A stream has no length: fetch sends it chunked (issue 19: such bodies were parsed inline).
    body:
      framing === 'chunked'
        ? new ReadableStream({
            start(c) {
              c.enqueue(body);
              c.close();
            },
          })
        : body,
    ...(framing === 'chunked' ? { duplex: 'half' } : {}),
  });
}

async function measure(
  port: number,
  loadKey: string,
  probeKey: string,
  body: Uint8Array,
  framing: Framing,
): Promise<{ p50: number; p99: number; max: number; validations: number; refused: number }> {
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + SECONDS * 1000;
  let validations = 0;
  let refused = 0;
  const loader = async () => {
    while (Date.now() < until) {
      const r = await postValidate(base, loadKey, body, framing);
      await r.arrayBuffer();
      // A chunked or compressed body holds 20 MiB of the budget, one organization at most half of
      // it: the fourth concurrent one waits as a client should (Retry-After).
      if (r.status === 503) {
        refused++;
        await new Promise((res) => setTimeout(res, Number(r.headers.get('retry-after') ?? 1) * 1000));
        continue;
      }
      if (r.status !== 200) throw new Error(`validate answered ${r.status}`);
      validations++;
    }
  };
  const latencies: number[] = [];
  const probe = async () => {
    while (Date.now() < until) {
      const t0 = performance.now();
      const r = await fetch(`${base}/v1/spec`, { headers: { authorization: `Bearer ${probeKey}` } });
      await r.arrayBuffer();
      latencies.push(performance.now() - t0);
      await new Promise((res) => setTimeout(res, 50));
    }
  };
  await Promise.all([loader(), loader(), loader(), loader(), probe()]);
  return {
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    max: Math.max(...latencies),
    validations,
    refused,
  };
}

/** One request, sent `ROUNDS` times, while /health/live is asked again as soon as it answers. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

interface Stall {
  /** The longest /health/live answer while the request ran, per round. */
  longest: number[];
  /** The longest turn of the gateway's event loop while the request ran, per round: wall and CPU time (loop-monitor.ts). */
  turnWall: number[];
  turnCpu: number[];
  /** How long the request took, per round. */
  took: number[];
  status: number;
  answerBytes: number;
}

/**
 * /health/live asked back to back from a thread of its own (this thread's loop is busy sending and
 * reading the large request: its stalls are not the gateway's), once the first has answered; `stop`
 * answers the longest latency.
 */
async function healthProbe(url: string): Promise<{ stop(): Promise<number> }> {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
    let done = false, longest = 0, first = true;
    parentPort.once('message', () => (done = true));
    (async () => {
      while (!done) {
        const t0 = performance.now();
        const r = await fetch(${JSON.stringify(url)});
        await r.arrayBuffer();
        if (first) parentPort.postMessage('ready');
        else longest = Math.max(longest, performance.now() - t0);
        first = false;
      }
      parentPort.postMessage(longest);
    })();`,
    { eval: true },
  );
  await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
  return {
    stop: () =>
      new Promise<number>((resolve) => {
        worker.once('message', (longest: number) => void worker.terminate().then(() => resolve(longest)));
        worker.postMessage('stop');
      }),
  };
}

/**
 * The longest time the event loop is held by one request: /health/live asked back to back from the
 * start of the request to its answer (a probe's latency is at least the longest stall it met).
 */
async function stall(
  port: number,
  newKey: () => Promise<string>,
  send: (key: string) => Promise<Response>,
): Promise<Stall> {
  const base = `http://127.0.0.1:${port}`;
  const out: Stall = { longest: [], turnWall: [], turnCpu: [], took: [], status: 0, answerBytes: 0 };
  // Round 0 warms up (a fresh process's first requests load code and compile queries) and is not counted.
  for (let round = 0; round <= ROUNDS; round++) {
    const key = await newKey();
    const probe = await healthProbe(`${base}/health/live`);
    const startedAt = Date.now();
    const t0 = performance.now();
    const r = await send(key);
    out.answerBytes = (await r.arrayBuffer()).byteLength;
    const took = performance.now() - t0;
    out.status = r.status;
    const longest = await probe.stop();
    if (round > 0) {
      out.took.push(took);
      out.longest.push(longest);
      const turns = loopTurns(startedAt, Date.now());
      out.turnWall.push(Math.max(0, ...turns.map((t) => t.wall)));
      out.turnCpu.push(Math.max(0, ...turns.map((t) => t.cpu)));
    }
    await new Promise((res) => setTimeout(res, 300));
  }
  return out;
}

const ms = (v: number[]) => v.map((x) => x.toFixed(0)).join(', ');

/** Where the gateway's loop-monitor.ts writes its long turns. */
const LOOP_FILE = path.join(tmpdir(), `ppfile-bench-loop-${process.pid}.txt`);

/** The gateway's turns of more than 10 ms that ended between `from` and `to` (epoch ms). */
function loopTurns(from: number, to: number): { wall: number; cpu: number }[] {
  let text: string;
  try {
    text = readFileSync(LOOP_FILE, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((line) => line.split(' ').map(Number))
    .filter(([at]) => at! >= from && at! <= to + 50)
    .map(([, wall, cpu]) => ({ wall: wall!, cpu: cpu! }));
}

async function main(): Promise<void> {
  await migrate(DB_URL);
  const prisma = createPrismaClient(DB_URL, { poolMax: 2 });
  const stores = createStores(prisma);
  const org = await stores.organizations.createOrganization({ name: 'bench loop', plan: 'pro' });
  const load = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live', name: 'load' });
  const other = await stores.organizations.createOrganization({ name: 'bench probe', plan: 'pro' });
  const probe = await stores.apiKeys.createApiKey({ organizationId: other.id, mode: 'live', name: 'probe' });
  const services = await benchServices('loop');
  const env = { ...services.env, RATE_LIMIT_SCALE: '1000' };
  // Encoded once: the client's own work must not be what the probe measures.
  const body = new TextEncoder().encode(bigBody());
  const gzipped = new Uint8Array(gzipSync(body));
  console.log(
    `ppfile event-loop benchmark — Node ${process.version}, ${SECONDS} s per mode, 4 × 50,000-holder validations in a loop (${(body.length / 1e6).toFixed(1)} MB each), GET /v1/spec every 50 ms`,
  );
  try {
    if (PART !== 'stalls') await throughput(env, load.key, probe.key, body, gzipped);
    // A business organization per request: a 50,000-row upload takes a month of its units.
    const newKey = async () => {
      const o = await stores.organizations.createOrganization({ name: 'bench stall', plan: 'business' });
      return (await stores.apiKeys.createApiKey({ organizationId: o.id, mode: 'live', name: 'stall' })).key;
    };
    if (PART !== 'throughput') await stalls(env, newKey, body, gzipped);
  } finally {
    await prisma.$disconnect();
    await services.close();
  }
}

/** BENCH_PART=throughput or stalls runs one part only; BENCH_ONLY, a pattern, the requests of part 2 whose label it matches. */
const PART = process.env.BENCH_PART ?? 'all';
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;

async function throughput(
  env: NodeJS.ProcessEnv,
  loadKey: string,
  probeKey: string,
  body: Uint8Array,
  gzipped: Uint8Array,
): Promise<void> {
  {
    for (const [label, threads, framing] of [
      ['rules inline on the event loop (RULES_THREADS=0)', '0', 'length'],
      ['rules in worker threads (default)', '', 'length'],
      ['rules in worker threads, bodies sent chunked', '', 'chunked'],
      [`rules in worker threads, bodies gzipped (${(gzipped.length / 1e3).toFixed(0)} KB)`, '', 'gzip'],
    ] as const) {
      const gateway = await startProcess(
        GATEWAY,
        { ...env, PORT: '3851', ...(threads ? { RULES_THREADS: threads } : {}) },
        /gateway listening/,
      );
      try {
        const r = await measure(3851, loadKey, probeKey, framing === 'gzip' ? gzipped : body, framing);
        console.log(
          `${label.padEnd(52)} /v1/spec p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  max ${r.max.toFixed(1)} ms  (${r.validations} validations${r.refused ? `, ${r.refused} × 503 then retried` : ''})`,
        );
      } finally {
        await stopProcess(gateway);
      }
    }
  }
}

/**
 * Part 2 (issue 32): how long one large request holds the event loop, from its first byte to its
 * answer: the longest /health/live latency, asked back to back, while it runs (target ≤ 100 ms).
 * A gateway with its default threads and one worker (the uploads over VALIDATE_QUEUE_THRESHOLD_BYTES).
 */
async function stalls(
  env: NodeJS.ProcessEnv,
  newKey: () => Promise<string>,
  body: Uint8Array,
  gzipped: Uint8Array,
): Promise<void> {
  const port = 3852;
  const base = `http://127.0.0.1:${port}`;
  const json = (bytes: Uint8Array, framing: Framing) => (key: string) =>
    postValidate(base, key, bytes, framing);
  const csvOf = (holders: number) =>
    generateFile(JSON.parse(sessionsBody(holders, 7)), { refs: testReferences(), today: 20261122 }).content;
  const upload = (path: string, csv: Uint8Array) => (key: string) => {
    const form = new FormData();
    form.set('type', 'adf');
    form.set('declarant', 'training_organization');
    form.set('file', new Blob([csv]), 'bench.csv');
    return fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
  };
  const big = csvOf(50_000);
  // The largest file still validated in the gateway (VALIDATE_QUEUE_THRESHOLD_BYTES, 2 MiB by default).
  const rowBytes = big.length / 50_000;
  const inGateway = csvOf(Math.floor((2 * 1024 * 1024 - 1024) / rowBytes));
  const invalid = JSON.parse(new TextDecoder().decode(body)) as {
    declarations: { holders: { nir: string }[] }[];
  };
  for (const d of invalid.declarations) for (const h of d.holders) h.nir = '1';
  const invalidBytes = new TextEncoder().encode(JSON.stringify(invalid));
  console.log(
    `\nOne request at a time, ${ROUNDS} rounds each: the longest GET /health/live (asked back to back) while it runs, and how long it took`,
  );
  rmSync(LOOP_FILE, { force: true });
  const monitor = {
    NODE_OPTIONS: `--require ${path.join(__dirname, 'loop-monitor.js')}`,
    BENCH_LOOP_FILE: LOOP_FILE,
  };
  const gateway = await startProcess(
    GATEWAY,
    { ...env, ...monitor, PORT: String(port) },
    /gateway listening/,
  );
  const worker = await startProcess(WORKER, env, /processing queue/);
  try {
    for (const [label, send] of [
      ['50,000-holder validate (Content-Length)', json(body, 'length')],
      ['50,000-holder validate, chunked', json(body, 'chunked')],
      ['50,000-holder validate, gzipped', json(gzipped, 'gzip')],
      ['50,000 holders, every NIR wrong, chunked', json(invalidBytes, 'chunked')],
      [
        `${(inGateway.length / 1e6).toFixed(1)} MB CSV files/validate (in the gateway)`,
        upload('/v1/files/validate', inGateway),
      ],
      [
        `${(big.length / 1e6).toFixed(1)} MB CSV (50,000 rows) files/validate (worker)`,
        upload('/v1/files/validate', big),
      ],
      [
        `${(inGateway.length / 1e6).toFixed(1)} MB CSV files/fix (in the gateway)`,
        upload('/v1/files/fix', inGateway),
      ],
    ] as const) {
      if (ONLY && !ONLY.test(label)) continue;
      const r = await stall(port, newKey, send);
      console.log(
        `${label.padEnd(50)} /health/live ${ms(r.longest)} ms; longest turn ${ms(r.turnWall)} ms, CPU ${ms(r.turnCpu)} ms  (request ${ms(r.took)} ms, ${r.status}, ${(r.answerBytes / 1e3).toFixed(0)} KB answer)`,
      );
    }
  } finally {
    await stopProcess(worker);
    await stopProcess(gateway);
    rmSync(LOOP_FILE, { force: true });
  }
}

main().catch((e: Error) => {
  console.error(`bench failed: ${e.message}`);
  process.exit(1);
});
