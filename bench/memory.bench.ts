/**
 * Is the memory of concurrent uploads bounded? (issue "Hostile input and abuse", row 8.) The built
 * gateway in its own process; 8 uploads of 19 MB sent at once to POST /v1/files/validate, three
 * rounds; prints the gateway's peak RSS (sampled from /proc every 20 ms) and how many uploads were
 * answered 503, with the cap off (MAX_INFLIGHT_BYTES = 64 GiB) and at its default (128 MiB); then
 * 30 gzipped JSON bodies inflating to 19 MiB each at once (issue 19: the cap counted the 20 KB sent).
 *
 * Needs PostgreSQL and Redis and a built gateway: npm run bench:memory
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { createPrismaClient, createStores, migrate } from '@ppfile/db';
import { benchServices, DB_URL, GATEWAY, startProcess, stopProcess } from './support';

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function round(port: number, key: string, file: Buffer): Promise<number[]> {
  return Promise.all(
    Array.from({ length: 8 }, async () => {
      const form = new FormData();
      form.set('type', 'adf');
      form.set('declarant', 'employer');
      form.set('file', new Blob([file]), 'big.csv');
      const r = await fetch(`http://127.0.0.1:${port}/v1/files/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      });
      await r.arrayBuffer();
      return r.status;
    }),
  );
}

async function main(): Promise<void> {
  await migrate(DB_URL);
  const prisma = createPrismaClient(DB_URL, { poolMax: 2 });
  const stores = createStores(prisma);
  const org = await stores.organizations.createOrganization({ name: 'bench memory', plan: 'business' });
  const { key } = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live', name: 'memory' });
  await prisma.$disconnect();
  const services = await benchServices('mem');
  // Validated in the gateway, not handed to a worker (there is none here).
  const env = {
    ...services.env,
    RATE_LIMIT_SCALE: '1000',
    VALIDATE_QUEUE_THRESHOLD_BYTES: String(100 * 1024 * 1024),
  };
  const line = `${'X'.repeat(200)}\r\n`;
  const file = Buffer.from(`HEADER\r\n${line.repeat(Math.floor((19 * 1024 * 1024) / line.length))}`);
  console.log(`ppfile memory benchmark — Node ${process.version}, 3 rounds of 8 concurrent 19 MB uploads`);
  try {
    for (const [label, cap] of [
      ['no cap (MAX_INFLIGHT_BYTES = 64 GiB)', String(64 * 1024 ** 3)],
      ['MAX_INFLIGHT_BYTES = 128 MiB (default)', String(128 * 1024 ** 2)],
    ] as const) {
      const gateway = await startProcess(
        GATEWAY,
        { ...env, PORT: '3861', MAX_INFLIGHT_BYTES: cap },
        /gateway listening/,
      );
      const idle = rssMb(gateway.pid!);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(gateway.pid!))), 20);
      const statuses: number[] = [];
      try {
        for (let i = 0; i < 3; i++) statuses.push(...(await round(3861, key, file)));
      } finally {
        clearInterval(sampler);
        await stopProcess(gateway);
      }
      const refused = statuses.filter((s) => s === 503).length;
      console.log(
        `${label.padEnd(42)} RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (+${(peak - idle).toFixed(0)}); ${refused} of ${statuses.length} answered 503`,
      );
    }
    // Issue 19: 30 gzipped JSON bodies of 19 MiB each (about 20 KB on the wire) at once, default cap.
    const gateway = await startProcess(GATEWAY, { ...env, PORT: '3862' }, /gateway listening/);
    const idle = rssMb(gateway.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(gateway.pid!))), 20);
    const bomb = gzipSync(
      Buffer.concat([Buffer.from('{"type":"adf"'), Buffer.alloc(19 * 1024 * 1024, ' '), Buffer.from('}')]),
    );
    let statuses: number[];
    try {
      statuses = await Promise.all(
        Array.from({ length: 30 }, async () => {
          const r = await fetch('http://127.0.0.1:3862/v1/declarations/validate', {
            method: 'POST',
            headers: {
              authorization: `Bearer ${key}`,
              'content-type': 'application/json',
              'content-encoding': 'gzip',
            },
            body: bomb,
          });
          await r.arrayBuffer();
          return r.status;
        }),
      );
    } finally {
      clearInterval(sampler);
      await stopProcess(gateway);
    }
    console.log(
      `${`30 gzip bodies (${(bomb.length / 1e3).toFixed(0)} KB → 19 MiB), default cap`.padEnd(42)} RSS idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (+${(peak - idle).toFixed(0)}); ${statuses.filter((s) => s === 503).length} of 30 answered 503`,
    );
  } finally {
    await services.close();
  }
}

main().catch((e: Error) => {
  console.error(`bench failed: ${e.message}`);
  process.exit(1);
});
