/**
 * Head-of-line benchmark (issue 20, deliverable 8): does an interactive upload wait behind
 * generations? One built gateway and one built worker with default settings, each a process of its
 * own, on this machine's PostgreSQL and Redis and a local S3 endpoint. Measures the latency of
 * POST /v1/files/validate with a file just above VALIDATE_QUEUE_THRESHOLD_BYTES (so a worker
 * validates it), nine times idle, then nine rounds of: 10 asynchronous generations of 20,000 holders
 * each accepted (queued), an upload sent at once, the queue drained. Target: loaded median ≤ 1.5 ×
 * idle median.
 *
 * Run: npm run bench:headofline
 */
import { createPrismaClient, createStores, migrate, type Stores } from '@ppfile/db';
import { benchServices, DB_URL, GATEWAY, sessionsBody, startProcess, stopProcess, WORKER } from './support';

const PORT = 3871;
const BASE = `http://127.0.0.1:${PORT}`;
const ROUNDS = 9;

async function freshKey(stores: Stores, name: string): Promise<string> {
  const org = await stores.organizations.createOrganization({ name, plan: 'business' });
  return (await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live' })).key;
}

async function upload(key: string, csv: Buffer, filename: string): Promise<number> {
  const form = new FormData();
  form.set('type', 'adf');
  form.set('declarant', 'training_organization');
  form.set('file', new Blob([csv]), filename);
  const t0 = performance.now();
  const res = await fetch(`${BASE}/v1/files/validate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const answer = (await res.json()) as { valid?: boolean };
  if (res.status !== 200 || answer.valid !== true)
    throw new Error(`validate answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  return performance.now() - t0;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function main(): Promise<void> {
  await migrate(DB_URL);
  const prisma = createPrismaClient(DB_URL, { poolMax: 2 });
  const stores = createStores(prisma);
  // s3rver in a process of its own: its work on the generated files is not the benchmark's event loop.
  const services = await benchServices('hol', { s3Process: true });
  const env: NodeJS.ProcessEnv = { ...services.env, RATE_LIMIT_SCALE: '1000', SWEEP_INTERVAL_SECONDS: '0' };
  const gateway = await startProcess(GATEWAY, { ...env, PORT: String(PORT) }, /gateway listening/);
  const worker = await startProcess(WORKER, env, /processing queue \\"validate\\"/);
  try {
    // The upload: an official CSV of ppfile's own making, just above the 2 MiB hand-off threshold.
    const made = await fetch(`${BASE}/v1/files/generate`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await freshKey(stores, 'hol csv')}`,
        'content-type': 'application/json',
      },
      body: sessionsBody(13_000, 0, { store: false }),
    });
    const file = (await made.json()) as { content: string; filename: string };
    const csv = Buffer.from(file.content, 'utf8');
    if (csv.length <= 2 * 1024 * 1024)
      throw new Error('the upload must be above the 2 MiB hand-off threshold');
    console.log(
      `ppfile head-of-line benchmark — Node ${process.version}; one gateway and one worker (default settings); an upload of ${(csv.length / 1024 / 1024).toFixed(2)} MiB (threshold 2 MiB), ${ROUNDS} times`,
    );
    const bodies = Array.from({ length: 10 }, (_, i) => sessionsBody(20_000, i + 1));
    const keys = await Promise.all(
      Array.from({ length: 2 * ROUNDS }, (_, i) => freshKey(stores, `hol ${i}`)),
    );
    await upload(keys[0]!, csv, file.filename); // warm-up
    const idle: number[] = [];
    for (let i = 0; i < ROUNDS; i++) idle.push(await upload(keys[i]!, csv, file.filename));

    // Each round: ten asynchronous 20,000-holder generations accepted (202: queued), then at once an
    // upload — the one that, with a single queue, waited behind all ten — then the queue drains.
    const loaded: number[] = [];
    let queuedAtUpload = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const generations = await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const res = await fetch(`${BASE}/v1/files/generate`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${await freshKey(stores, `hol gen ${round}-${i}`)}`,
              'content-type': 'application/json',
              prefer: 'respond-async',
            },
            body: bodies[i]!,
          });
          if (res.status !== 202) throw new Error(`generate answered ${res.status}`);
          return ((await res.json()) as { file_id: string }).file_id;
        }),
      );
      const processing = () =>
        prisma.fileRecord.count({ where: { id: { in: generations }, status: 'PROCESSING' } });
      queuedAtUpload += await processing();
      loaded.push(await upload(keys[ROUNDS + round]!, csv, file.filename));
      while ((await processing()) > 0) await new Promise((r) => setTimeout(r, 100));
    }
    const ratio = median(loaded) / median(idle);
    console.log(
      `idle    median ${median(idle).toFixed(0)} ms (min ${Math.min(...idle).toFixed(0)}, max ${Math.max(...idle).toFixed(0)})`,
    );
    console.log(
      `loaded  median ${median(loaded).toFixed(0)} ms (min ${Math.min(...loaded).toFixed(0)}, max ${Math.max(...loaded).toFixed(0)}); on average ${(queuedAtUpload / ROUNDS).toFixed(1)} of 10 generations still processing when the upload was sent`,
    );
    console.log(`loaded / idle = ${ratio.toFixed(2)} (target ≤ 1.5: ${ratio <= 1.5 ? 'met' : 'missed'})`);
  } finally {
    await stopProcess(worker);
    await stopProcess(gateway);
    await prisma.$disconnect();
    await services.close();
  }
}

main().catch((e: Error) => {
  console.error(`bench failed: ${e.message}`);
  process.exit(1);
});
