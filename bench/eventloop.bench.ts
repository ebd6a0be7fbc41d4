/**
 * Does a free endpoint starve the others? (issue "Hostile input and abuse", row 7.) One gateway
 * process; a Pro key sends 50,000-holder bodies to POST /v1/declarations/validate, four at a time
 * without pause (more than the plan's 300 a minute allows: the rate limit is scaled up), while
 * another key reads GET /v1/spec every 50 ms. Prints the /v1/spec latency (p50, p99, max) with the
 * rules run inline on the event loop (RULES_THREADS=0) and in the rules threads (default), the
 * latter also with the bodies sent chunked and gzipped (issue 19: those were parsed on the event loop).
 * Target: /v1/spec p99 < 20 ms with the threads.
 *
 * Needs PostgreSQL and Redis and a built gateway: npm run bench:eventloop
 */
import { gzipSync } from 'node:zlib';
import { createPrismaClient, createStores, migrate } from '@ppfile/db';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { benchServices, DB_URL, GATEWAY, startProcess, stopProcess } from './support';

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
      const r = await fetch(`${base}/v1/declarations/validate`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${loadKey}`,
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

async function main(): Promise<void> {
  await migrate(DB_URL);
  const prisma = createPrismaClient(DB_URL, { poolMax: 2 });
  const stores = createStores(prisma);
  const org = await stores.organizations.createOrganization({ name: 'bench loop', plan: 'pro' });
  const load = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live', name: 'load' });
  const other = await stores.organizations.createOrganization({ name: 'bench probe', plan: 'pro' });
  const probe = await stores.apiKeys.createApiKey({ organizationId: other.id, mode: 'live', name: 'probe' });
  await prisma.$disconnect();
  const services = await benchServices('loop');
  const env = { ...services.env, RATE_LIMIT_SCALE: '1000' };
  // Encoded once: the client's own work must not be what the probe measures.
  const body = new TextEncoder().encode(bigBody());
  const gzipped = new Uint8Array(gzipSync(body));
  console.log(
    `ppfile event-loop benchmark — Node ${process.version}, ${SECONDS} s per mode, 4 × 50,000-holder validations in a loop (${(body.length / 1e6).toFixed(1)} MB each), GET /v1/spec every 50 ms`,
  );
  try {
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
        const r = await measure(3851, load.key, probe.key, framing === 'gzip' ? gzipped : body, framing);
        console.log(
          `${label.padEnd(52)} /v1/spec p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  max ${r.max.toFixed(1)} ms  (${r.validations} validations${r.refused ? `, ${r.refused} × 503 then retried` : ''})`,
        );
      } finally {
        await stopProcess(gateway);
      }
    }
  } finally {
    await services.close();
  }
}

main().catch((e: Error) => {
  console.error(`bench failed: ${e.message}`);
  process.exit(1);
});
