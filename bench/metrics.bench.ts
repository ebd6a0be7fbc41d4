/**
 * What does a scrape of `/metrics` cost? (issue 35: "a `/metrics` scrape: dependency I/O (bucket
 * check, 60–350 ms with s3rver) and a count of every file, each scrape".) One built gateway over
 * PostgreSQL, Redis and s3rver in a process of its own; `/metrics` is scraped back to back, then
 * GET /v1/spec is timed alone and while another client scrapes without pause. Prints p50, p99 and
 * max of each. BENCH_GATEWAY_MAIN=<main.js of another build> measures that build instead (the
 * figures before the change came from the commit before it, built apart). BENCH_FILES=<n> first adds
 * n file records (expired, no object) for the count to count: give it a database of its own
 * (BENCH_DATABASE_URL=postgresql://…/ppfile_bench_metrics), they stay there.
 *
 * Needs PostgreSQL and Redis and a built gateway: npm run bench:metrics
 */
import { createPrismaClient, createStores, migrate } from '@ppfile/db';
import { benchServices, DB_URL, freePort, GATEWAY, startProcess, stopProcess } from './support';

const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 200);
const FILES = Number(process.env.BENCH_FILES ?? 0);
const MAIN = process.env.BENCH_GATEWAY_MAIN ?? GATEWAY;
const OPERATOR = 'Basic ' + Buffer.from('operator:operator-secret').toString('base64');

function quantiles(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms (${ms.length})`;
}

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers });
  await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - start;
}

async function main(): Promise<void> {
  await migrate(DB_URL);
  const prisma = createPrismaClient(DB_URL, { poolMax: 2 });
  const stores = createStores(prisma);
  const org = await stores.organizations.createOrganization({ name: 'bench metrics', plan: 'pro' });
  const key = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live', name: 'spec' });
  if (FILES > 0)
    await prisma.$executeRaw`
      INSERT INTO files (id, organization_id, api_key_id, mode, status, type, declarant, spec_version,
                         filename, rows, declarations, stored, units)
      SELECT 'file_' || md5(random()::text || n), ${org.id}, ${key.id}, 'LIVE', 'EXPIRED', 'adf',
             'employer', '2026-02', 'bench.csv', 1, 1, false, 0
      FROM generate_series(1, ${FILES}::int) AS n`;
  const services = await benchServices('metrics', { s3Process: true });
  const port = await freePort();
  const gateway = await startProcess(
    MAIN,
    {
      ...services.env,
      PORT: String(port),
      OPERATOR_USER: 'operator',
      OPERATOR_PASSWORD: 'operator-secret',
      RATE_LIMIT_SCALE: '1000',
    },
    /gateway listening/,
  );
  const base = `http://127.0.0.1:${port}`;
  const scrape = () => timed(`${base}/metrics`, { Authorization: OPERATOR });
  const spec = () => timed(`${base}/v1/spec`, { Authorization: `Bearer ${key.key}` });
  try {
    const files = await prisma.fileRecord.count();
    console.log(`ppfile /metrics benchmark — Node ${process.version}, ${files} file records, ${MAIN}`);
    for (let i = 0; i < 10; i++) await scrape(); // warm-up
    const scrapes: number[] = [];
    for (let i = 0; i < SCRAPES; i++) scrapes.push(await scrape());
    console.log(`/metrics, back to back:          ${quantiles(scrapes)}`);
    const alone: number[] = [];
    for (let i = 0; i < SCRAPES; i++) alone.push(await spec());
    console.log(`GET /v1/spec alone:              ${quantiles(alone)}`);
    let scraping = true;
    const scraper = (async () => {
      while (scraping) await scrape();
    })();
    const during: number[] = [];
    for (let i = 0; i < SCRAPES; i++) during.push(await spec());
    scraping = false;
    await scraper;
    console.log(`GET /v1/spec while scraped:      ${quantiles(during)}`);
  } finally {
    await stopProcess(gateway);
    await services.close();
    await prisma.$disconnect();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
