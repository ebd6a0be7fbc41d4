import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Cluster, Redis } from 'ioredis';
import { generateFile, parisDay } from '@ppfile/rules';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { ReferenceDirectory } from '@ppfile/refdata';
import { startGateway, type Gateway } from './support/gateway';
import { GatewayProcess } from './support/gateway-process';
import { freePort, spawnUntilReady, stopGroup } from './support/stack';
import { spawnWorker, workerConfigFor } from './support/worker';

/**
 * ppfile on a Redis Cluster (REDIS_CLUSTER_NODES, docs/operating.md "Sizing"): a private cluster of
 * three masters (redis-server --cluster-enabled, redis-cli --cluster create), a built gateway and a
 * built worker on it. A generation and an upload go through the queues to the worker and back: every
 * multi-key operation (BullMQ's scripts under the braced prefix, the rate limiter's script, the sealed
 * upload's MULTI and DEL) keeps its keys in one hash slot, or the cluster refuses it (CROSSSLOT). The
 * keys are spread over the masters. Skipped, saying so, only where redis-server or redis-cli is absent.
 */
jest.setTimeout(120_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const run = promisify(execFile);
const onPath = (name: string) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
const HAVE_REDIS = onPath('redis-server') && onPath('redis-cli');
const KIND = { type: 'adf', declarant: 'training_organization' } as const;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
type ReadyChild = Awaited<ReturnType<typeof spawnUntilReady>>;

/** Three masters on free ports, every slot assigned. */
class PrivateCluster {
  readonly nodes: { port: number; server: ReadyChild }[] = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'ppfile-redis-cluster-'));

  async start(): Promise<void> {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const server = await spawnUntilReady(
        'redis-server',
        [
          '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes',
          '--cluster-config-file', join(this.dir, `nodes-${port}.conf`), '--dir', this.dir,
          '--save', '', '--appendonly', 'no', '--daemonize', 'no',
        ], // prettier-ignore
        /Ready to accept connections/i,
      );
      this.nodes.push({ port, server });
    }
    await run('redis-cli', [
      '--cluster', 'create', ...this.addresses, '--cluster-replicas', '0', '--cluster-yes',
    ]); // prettier-ignore
    for (const { port } of this.nodes) {
      for (let tries = 0; ; tries++) {
        const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
        if (stdout.includes('cluster_state:ok')) break;
        if (tries > 100) throw new Error(`cluster not ready on ${port}:\n${stdout}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  get addresses(): string[] {
    return this.nodes.map(({ port }) => `127.0.0.1:${port}`);
  }

  /** Every key of every master matching `pattern`, by master. */
  async keysByMaster(pattern: string): Promise<string[][]> {
    return Promise.all(
      this.nodes.map(async ({ port }) => {
        const node = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
        try {
          await node.connect();
          return await node.keys(pattern);
        } finally {
          node.disconnect();
        }
      }),
    );
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map(({ server }) => stopGroup(server.child)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A valid body of `holders` holders, each with a NIR and an id of its own. */
function bodyOf(holders: number): Json {
  const b = validBody(KIND.type, KIND.declarant, holders) as Json;
  b.declarations[0].holders.forEach((h: Json, n: number) => {
    h.nir = `1${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`;
    h.unique_id = `U-${n}`;
  });
  return b;
}

/** An official CSV of `holders` rows, as `generate` writes it. */
function csvOf(gw: Gateway, holders: number): Buffer {
  const refs = new ReferenceDirectory(null);
  return generateFile(bodyOf(holders), { refs: refs.lists('2026-02'), today: parisDay(gw.clock.now()) })
    .content;
}

if (!HAVE_REDIS) {
  describe('ppfile on a Redis Cluster', () => {
    it.skip('skipped: redis-server or redis-cli is not on PATH (Debian: apt-get install redis-server)', () => {});
  });
} else {
  describe('ppfile on a Redis Cluster (REDIS_CLUSTER_NODES)', () => {
    const cluster = new PrivateCluster();
    const prefix = `cluster-${randomBytes(4).toString('hex')}`;
    let gw: Gateway;
    let gateway: GatewayProcess;
    let worker: ChildProcess | null = null;
    let workerLog = '';
    let org: { live: string; id: string };

    beforeAll(async () => {
      await cluster.start();
      gw = await startGateway();
      org = await gw.organization('pro');
      const settings = {
        REDIS_URL: `redis://${cluster.addresses[0]}`,
        REDIS_CLUSTER_NODES: cluster.addresses.slice(0, 2).join(','), // the third is discovered
        QUEUE_PREFIX: prefix,
      };
      gateway = new GatewayProcess(gw, {
        ...settings,
        GENERATE_QUEUE_THRESHOLD_ROWS: '10',
        VALIDATE_QUEUE_THRESHOLD_BYTES: '1024',
        QUEUE_WAIT_SECONDS: '60',
      });
      await gateway.start();
      worker = await spawnWorker({
        ...workerConfigFor(gw),
        redisUrl: settings.REDIS_URL,
        redisClusterNodes: settings.REDIS_CLUSTER_NODES.split(','),
        queuePrefix: prefix,
      });
      worker.stdout!.on('data', (d: Buffer) => (workerLog += d.toString()));
      for (let tries = 0; (await request(gateway.url).get('/health/ready')).status !== 200; tries++) {
        if (tries > 100) throw new Error(`the gateway is not ready on the cluster:\n${gateway.log}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });

    afterAll(async () => {
      await gateway?.stop();
      if (worker && worker.exitCode === null) {
        const exited = new Promise((r) => worker!.once('exit', r));
        worker.kill('SIGTERM');
        await exited;
      }
      await gw?.close();
      await cluster.stop();
    });

    it('a generation goes through the queue to the worker and back; the queue keys share one slot', async () => {
      const body = bodyOf(30);
      const accepted = await request(gateway.url)
        .post('/v1/files/generate')
        .set(bearer(org.live))
        .set('Prefer', 'respond-async')
        .send(body);
      expect(accepted.status).toBe(202);
      const fileId = accepted.body.file_id as string;
      let file: Json = {};
      for (let tries = 0; tries < 300; tries++) {
        file = (await request(gateway.url).get(`/v1/files/${fileId}`).set(bearer(org.live))).body;
        if (file.status !== 'processing') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(file).toMatchObject({ status: 'available', rows: 30 });
      const download = await request(gateway.url).get(`/v1/files/${fileId}/download`).set(bearer(org.live));
      expect(download.status).toBe(200);
      expect(workerLog).toMatch(new RegExp(`"job":"generate".*"file_id":"${fileId}".*"outcome":"completed"`));
      // BullMQ's keys under the braced prefix, all on one master (one slot); none unbraced.
      const queueKeys = await cluster.keysByMaster(`{${prefix}}:generate:*`);
      expect(queueKeys.filter((keys) => keys.length > 0)).toHaveLength(1);
      expect((await cluster.keysByMaster(`${prefix}:generate:*`)).flat()).toEqual([]);
      // The request's rate-limit counters: its key's and its organization's, in one slot.
      const limits = (await cluster.keysByMaster(`${prefix}:rl:*`)).filter((keys) => keys.length > 0);
      expect(limits).toHaveLength(1);
      expect(limits[0]).toEqual(
        expect.arrayContaining([`${prefix}:rl:{org:${org.id}}`, expect.stringMatching(/:key:key_/)]),
      );
    });

    it('an upload over VALIDATE_QUEUE_THRESHOLD_BYTES is validated by the worker through its sealed keys', async () => {
      const csv = csvOf(gw, 20);
      expect(csv.length).toBeGreaterThan(1024);
      const res = await request(gateway.url)
        .post('/v1/files/validate')
        .set(bearer(org.live))
        .field('type', KIND.type)
        .field('declarant', KIND.declarant)
        .attach('file', csv, 'session.csv');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ valid: true, rows_total: 20 });
      expect(workerLog).toMatch(/"job":"validate-file".*"outcome":"completed"/);
      // The gateway deleted the upload and its answer (one DEL of two keys: one slot).
      const left = await cluster.keysByMaster(`${prefix}:*:validate:*`);
      expect(left.flat()).toEqual([]);
    });

    it("spreads ppfile's keys over the masters (a cluster, not one node)", async () => {
      const client = new Cluster(
        cluster.addresses.map((a) => ({ host: '127.0.0.1', port: Number(a.split(':')[1]) })),
      );
      try {
        // Many organizations' counters: their slots fall on every master.
        const rl = Array.from({ length: 30 }, (_, i) => `${prefix}:rl:{org:spread${i}}`);
        for (const key of rl) await client.set(key, '1', 'EX', 60);
        const byMaster = await cluster.keysByMaster(`${prefix}:rl:{org:spread*`);
        expect(byMaster.every((keys) => keys.length > 0)).toBe(true);
      } finally {
        client.disconnect();
      }
    });
  });
}
