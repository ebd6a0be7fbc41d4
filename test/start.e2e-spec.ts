/**
 * `npm start` (bin/start.js → apps/cli/src/start-local.ts) as a person runs it: it builds only what
 * is stale, prints each step and the URLs, serves, and stopping it (SIGTERM, as npm forwards it)
 * stops every child; a port already taken is one line naming it. The machine's PostgreSQL and
 * Redis, a fresh database, free ports.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { createTestDatabase, type TestDatabase } from './support/database';
import { suiteLogs } from './support/logs';
import { freePort } from './support/stack';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '..');
const START = path.join(ROOT, 'bin/start.js');

/** Pids of the live children of `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may contain spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const README_BLOCK =
  /<!-- test\/start\.e2e-spec\.ts runs this block against npm start -->\n+```bash\n([\s\S]*?)\n```/g;

/**
 * README's "First steps" blocks, pasted as a person would (from the repository's directory), against
 * this npm start: only the key and the port differ. Each must exit 0 (curl --fail-with-body), and
 * what it prints must be what README says it prints.
 */
function runReadmeBlocks(key: string, port: number, env: NodeJS.ProcessEnv): void {
  const blocks = [...readFileSync(path.join(ROOT, 'README.md'), 'utf8').matchAll(README_BLOCK)].map(
    (m) => m[1]!,
  );
  expect(blocks).toHaveLength(2);
  const made: string[] = [];
  try {
    for (const block of blocks) {
      const script = block
        .replace(/^KEY=pp_test_\.\.\..*$/m, `KEY=${key}`)
        .replace(/^API=http:\/\/localhost:3000$/m, `API=http://localhost:${port}`);
      expect(script).not.toContain('localhost:3000');
      const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
        timeout: 180_000,
      });
      const csv = /^(ppfile_adf_\d{8}_[0-9a-f]{8}\.csv)$/m.exec(r.stdout)?.[1];
      if (csv) made.push(csv);
      if (script.includes('large.json')) made.push('large.json');
      expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ status: 0, stderr: '' });
      if (script.includes('KEY=')) {
        expect(r.stdout).toContain('"current":"2026-02"');
        expect(r.stdout).toMatch(/^file_[0-9a-z]+$/m);
        expect(csv).toBeDefined();
        // The file the API generated validates clean when uploaded back.
        expect(r.stdout).toMatch(/"valid":\s*true/);
      } else {
        expect(r.stdout).toMatch(/^available$/m);
        expect(r.stdout).toMatch(/3000 of 10000 units used/);
      }
    }
  } finally {
    for (const file of made) rmSync(path.join(ROOT, file), { force: true });
  }
}

describe('npm start', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let ports: { gateway: number; worker: number; s3: number };

  beforeAll(async () => {
    db = await createTestDatabase({ migrate: false });
    ports = { gateway: await freePort(), worker: await freePort(), s3: await freePort() };
    env = {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(ports.gateway),
      WORKER_HTTP_PORT: String(ports.worker),
      PPFILE_LOCAL_S3_PORT: String(ports.s3),
      QUEUE_PREFIX: `start-${db.name}`,
      S3_ENDPOINT: '',
      PAYLOAD_ENCRYPTION_KEY: '',
    };
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('prints each step and the URLs, serves, and SIGTERM stops the gateway and the worker', async () => {
    const child: ChildProcess = spawn(process.execPath, [START], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    // Every line but the launcher's own (its steps, the URLs block) goes through the log audit: the
    // gateway's and the worker's lines must all be JSON without personal data, whatever they say.
    const LAUNCHER = /^(ppfile[: ]| {2}|First run: |Organizations exist|Try: |Dashboard access: |$)/;
    const partial = { stdout: '', stderr: '' };
    const keeper = (stream: keyof typeof partial) => (d: Buffer) => {
      out += d.toString();
      const lines = (partial[stream] + d.toString()).split('\n');
      partial[stream] = lines.pop()!;
      for (const line of lines) if (!LAUNCHER.test(line)) suiteLogs.feed(`${line}\n`);
    };
    child.stdout!.on('data', keeper('stdout'));
    child.stderr!.on('data', keeper('stderr'));
    try {
      const end = Date.now() + 200_000;
      while (!out.includes('ppfile is running') && Date.now() < end && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 200));
      expect(out).toContain('ppfile is running');
      expect(out).toMatch(/ppfile: (build is current|building)/);
      expect(out).toMatch(/ppfile: PostgreSQL .*: reachable, .*migration/);
      expect(out).toContain('ppfile: Redis');
      expect(out).toContain(`ppfile: S3: local endpoint http://127.0.0.1:${ports.s3}`);
      for (const url of ['/v1', '/docs', '/admin/queues', '/metrics'])
        expect(out).toContain(`http://localhost:${ports.gateway}${url}`);
      expect(out).toContain(`http://localhost:${ports.worker}/metrics`);
      expect(out).toMatch(/test key \(shown once; 50 rows a request\):\n {2}pp_test_[A-Za-z0-9]{32,}/);
      const ready = await fetch(`http://127.0.0.1:${ports.gateway}/health/ready`);
      expect(ready.status).toBe(200);
      expect(out).toContain(`http://localhost:${ports.gateway}/dashboard`);
      const key = /\n {2}(pp_test_[A-Za-z0-9]+)/.exec(out)![1]!;
      expect(out).toMatch(/Dashboard access: npx ppfile admin user create --org org_[0-9a-z]+ --email/);
      runReadmeBlocks(key, ports.gateway, env);
      const kids = childrenOf(child.pid!);
      expect(kids).toHaveLength(2);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('SIGTERM: stopping');
      expect(out).toContain('ppfile: stopped');
      for (const pid of kids) expect(alive(pid)).toBe(false);
    } finally {
      // A failed expectation: stop it as Ctrl-C does, so that no gateway or worker outlives the test.
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 40_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }
  });

  it('a port already taken: one line naming it, exit 1, nothing started; the build is current', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(ports.gateway, '0.0.0.0', () => r()));
    try {
      const r = spawnSync(process.execPath, [START], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
      expect(r.status).toBe(1);
      expect(r.stdout).toContain('ppfile: build is current');
      expect(r.stderr.trim().split('\n')).toEqual([
        `ppfile: port ${ports.gateway} is already in use (PORT): stop what uses it, or set PORT to another port.`,
      ]);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });
});
