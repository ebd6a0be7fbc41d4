/**
 * HTTP load benchmark (issue: the gateway, deliverable 10). In one run, on loopback with
 * autocannon at 50 connections:
 *   (1) a bare Nest endpoint (express, JSON body parsed, tiny JSON answer) — the ceiling;
 *   (2) ppfile's POST /v1/declarations/validate with a 10-holder body, through the whole gateway
 *       (request id, API-key lookup in PostgreSQL, per-key and per-organization limits in Redis,
 *       body parsing, the rules).
 * Each server runs in its own process. Prints requests/s and p99 latency of both.
 * Targets (issue 35): (2) ≥ 60 % of (1)'s requests/s, p99 ≤ 25 ms.
 *
 * Needs PostgreSQL and Redis (as for the tests) and a built gateway: npm run bench:http
 *
 * BENCH_CPU_PROF=DIR runs the gateway with --cpu-prof, its .cpuprofile written to DIR when the
 * benchmark stops it (summed per function and per package by bench/profile-summary.ts).
 * BENCH_GATEWAY=PATH runs another build's gateway main.js (e.g. a copy of the previous dist/, to
 * pair runs of the old and the new build with the same client).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { createPrismaClient, createStores, migrate } from '@ppfile/db';
import { validBody } from '@ppfile/rules/testing/fixtures';
import * as path from 'node:path';
import { benchServices, cpuSeconds, DB_URL, freePort, GATEWAY } from './support';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const CPU_PROF = process.env.BENCH_CPU_PROF;

/** The bare Nest app, run as a child: `node http.bench.js bare PORT`. */
async function bareServer(port: number): Promise<void> {
  await import('reflect-metadata');
  const { Body, Controller, HttpCode, Module, Post } = await import('@nestjs/common');
  const { NestFactory } = await import('@nestjs/core');
  @Controller()
  class BareController {
    @Post('bare')
    @HttpCode(200)
    bare(@Body() body: { declarations?: unknown[] }): { ok: boolean; declarations: number } {
      return { ok: true, declarations: body.declarations?.length ?? 0 };
    }
  }
  @Module({ controllers: [BareController] })
  class BareModule {}
  const app = await NestFactory.create(BareModule, { logger: false });
  await app.listen(port, '127.0.0.1');
  process.send?.('ready');
}

function startChild(args: string[], env: NodeJS.ProcessEnv, readyText: string | null): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start`)), 30_000);
    const done = () => {
      clearTimeout(timer);
      resolve(child);
    };
    child.on('message', (m) => m === 'ready' && done());
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (readyText && out.includes(readyText)) done();
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out.slice(-2000)}`)));
  });
}

/**
 * A typical clean request: 10 holders with distinct NIRs, dates already in the official format and
 * codes of the shipped lists, so the answer is `valid` with no warning (as most calls should be).
 */
function benchBody(): Record<string, unknown> {
  const body = validBody('adf', 'training_organization', 10) as { declarations: Record<string, unknown>[] };
  const declaration = body.declarations[0]!;
  declaration.training = {
    ...(declaration.training as object),
    start_date: '14/09/2026',
    end_date: '15/09/2026',
    formacodes: ['42829'],
    nsf_codes: ['344r'],
  };
  (declaration.holders as Record<string, unknown>[]).forEach((h, i) => {
    h.nir = `2${String(60 + i)}0575${String(100 + i)}${String(10 + i).padStart(3, '0')}`;
    h.validity_start = '15/09/2026';
    h.validity_end = '14/09/2028';
  });
  return body;
}

/**
 * Warm-up, then the measured run; with the server's CPU time (/proc) per request of that run: on
 * this shared machine requests/s move with the other users' load, the CPU a request costs much less.
 */
async function load(
  url: string,
  headers: Record<string, string>,
  body: string,
  server: ChildProcess,
): Promise<autocannon.Result & { cpuMsPerRequest: number }> {
  await autocannon({ url, method: 'POST', headers, body, connections: CONNECTIONS, duration: 2 });
  const cpu = cpuSeconds(server.pid!);
  const result = await autocannon({
    url,
    method: 'POST',
    headers,
    body,
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
  return { ...result, cpuMsPerRequest: ((cpuSeconds(server.pid!) - cpu) * 1000) / result.requests.total };
}

async function main(): Promise<void> {
  if (process.argv[2] === 'bare') return bareServer(Number(process.argv[3]));

  await migrate(DB_URL);
  const prisma = createPrismaClient(DB_URL, { poolMax: 2 });
  const stores = createStores(prisma);
  const org = await stores.organizations.createOrganization({ name: 'bench', plan: 'business' });
  const { key } = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live', name: 'bench' });
  await prisma.$disconnect();

  const services = await benchServices('http');
  // The plans' per-minute limits would stop a load test within a second; the limiter still runs.
  const profile = CPU_PROF
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${path.resolve(CPU_PROF)}`,
        '--require',
        path.join(__dirname, 'cpu-prof-exit.js'),
      ]
    : [];
  const gatewayPort = await freePort();
  const gateway = await startChild(
    [...profile, process.env.BENCH_GATEWAY ?? GATEWAY],
    { ...services.env, PORT: String(gatewayPort), RATE_LIMIT_SCALE: '100000' },
    'gateway listening',
  );
  const barePort = await freePort();
  const bare = await startChild([__filename, 'bare', String(barePort)], process.env, null);

  const body = JSON.stringify(benchBody());
  const json = { 'content-type': 'application/json' };
  try {
    const b = await load(`http://127.0.0.1:${barePort}/bare`, json, body, bare);
    const g = await load(
      `http://127.0.0.1:${gatewayPort}/v1/declarations/validate`,
      { ...json, authorization: `Bearer ${key}` },
      body,
      gateway,
    );
    const bad = g.non2xx + g.errors;
    const line = (label: string, r: Awaited<ReturnType<typeof load>>) =>
      `${label.padEnd(52)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   CPU ${r.cpuMsPerRequest.toFixed(3)} ms/request   (${r.requests.total} requests, non-2xx ${r.non2xx}, errors ${r.errors})`;
    const ratio = g.requests.average / b.requests.average;
    console.log(
      `ppfile HTTP benchmark — Node ${process.version}, autocannon ${CONNECTIONS} connections, ${DURATION_S} s each, 10-holder body (${body.length} bytes)`,
    );
    console.log(line('(1) bare Nest endpoint (express, JSON body)', b));
    console.log(line('(2) POST /v1/declarations/validate (whole gateway)', g));
    console.log(
      `targets: (2)/(1) = ${(ratio * 100).toFixed(0)} % (≥ 60 %) ${ratio >= 0.6 ? 'met' : 'MISSED'}; ` +
        `(2) p99 ${g.latency.p99} ms (≤ 25) ${g.latency.p99 <= 25 ? 'met' : 'MISSED'}` +
        (bad ? `; WARNING: ${bad} failed requests` : ''),
    );
    console.log(
      `server CPU per request, (1)/(2) = ${((b.cpuMsPerRequest / g.cpuMsPerRequest) * 100).toFixed(0)} % ` +
        '(the ratio of requests/s when each server has a core of its own)',
    );
  } finally {
    // Waited for: a gateway still draining would hold the port of the next run (runs are paired).
    const exited = [gateway, bare].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    gateway.kill('SIGTERM');
    bare.kill('SIGTERM');
    await Promise.all(exited);
    if (CPU_PROF) console.log(`gateway CPU profile written to ${path.resolve(CPU_PROF)}`);
    await services.close();
  }
}

main().catch((e: Error) => {
  console.error(`bench failed: ${e.message}`);
  process.exit(1);
});
