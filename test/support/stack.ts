import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { LOCAL_S3_CREDENTIALS } from '@ppfile/storage';

/**
 * Private dependency services for chaos tests: a Redis, a PostgreSQL cluster and an s3rver of the
 * test's own, on free loopback ports, that the test may kill and restart without disturbing the
 * machine's shared servers (PostgreSQL on 5432, Redis on 6379) or the other suites.
 *
 * Every server runs in a process group of its own and is stopped by signalling that group, never
 * by process name. Nothing is registered globally (no exit hooks, no timers): a test must call
 * `destroy()` / `kill()` in its afterAll. Once a server is ready its handles are unref'd, so a
 * forgotten server leaks a process but does not keep jest alive. All stop methods are idempotent.
 *
 *   const redis = new PrivateRedis();   await redis.start();  redis.url;      await redis.kill();
 *   const pg = new PrivatePostgres();   await pg.start();     pg.url('db');   await pg.stop('immediate'); await pg.destroy();
 *   const s3 = new PrivateS3();         await s3.start();     s3.endpoint;    await s3.stop();   await s3.destroy();
 */

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

/** A TCP port free on 127.0.0.1 right now (bound to port 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Sends `signal` (SIGKILL by default) to the process group of `child` (spawned with
 * `detached: true`, so its pid is its group id) and waits for the child to exit. No-op when the
 * child is missing or already gone; safe to call twice.
 */
export async function stopGroup(
  child: ChildProcess | null | undefined,
  signal: NodeJS.Signals = 'SIGKILL',
  timeoutMs = STOP_TIMEOUT_MS,
): Promise<void> {
  if (!child || child.pid === undefined || hasExited(child)) return;
  child.ref(); // while we wait for it, the exit must be observed
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
    child.kill(signal); // not a group leader (not detached?): the process alone
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`pid ${child.pid} did not exit within ${timeoutMs} ms of ${signal}`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface ReadyChild {
  child: ChildProcess;
  /** The last few KB of the child's stdout and stderr, for error messages. */
  output(): string;
}

/**
 * Spawns `command` in a process group of its own and resolves once `ready` matches its output.
 * Rejects (after killing the group) when the child exits first or does not get ready in time.
 */
export function spawnUntilReady(
  command: string,
  args: string[],
  ready: RegExp,
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<ReadyChild> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const output = () => out;
  const append = (d: Buffer) => {
    out = (out + d.toString()).slice(-8192); // keep draining so the child never blocks on a full pipe
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  return new Promise<ReadyChild>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      stopGroup(child).then(
        () => reject(error),
        () => reject(error),
      );
    };
    const onData = () => {
      if (settled || !ready.test(out)) return;
      settled = true;
      cleanup();
      // Running servers must not keep the test process alive; stopGroup re-refs the child.
      child.unref();
      for (const s of [child.stdout, child.stderr]) (s as unknown as { unref?: () => void }).unref?.();
      resolve({ child, output });
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(new Error(`${command} exited (${signal ?? code}) before it was ready:\n${out}`));
    const onError = (e: Error) => fail(new Error(`${command} could not be spawned: ${e.message}`));
    const timer = setTimeout(
      () =>
        fail(new Error(`${command} not ready within ${options.timeoutMs ?? START_TIMEOUT_MS} ms:\n${out}`)),
      options.timeoutMs ?? START_TIMEOUT_MS,
    );
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

// ---------------------------------------------------------------------------------------------
// Redis

/** A redis-server of its own (no persistence) on a free port; `kill()` is a crash (SIGKILL). */
export class PrivateRedis {
  private child: ReadyChild | null = null;
  private _port: number;

  constructor(options: { port?: number } = {}) {
    this._port = options.port ?? 0;
  }

  get port(): number {
    return this._port;
  }

  get url(): string {
    if (!this._port) throw new Error('PrivateRedis: start() it first');
    return `redis://127.0.0.1:${this._port}`;
  }

  get running(): boolean {
    return this.child !== null && !hasExited(this.child.child);
  }

  get pid(): number | undefined {
    return this.running ? this.child!.child.pid : undefined;
  }

  /** Starts (or restarts, on the same port and empty) the server; no-op when it is running. */
  async start(): Promise<void> {
    if (this.running) return;
    const firstStart = !this._port;
    for (let attempt = 1; ; attempt++) {
      if (!this._port) this._port = await freePort();
      try {
        this.child = await spawnUntilReady(
          'redis-server',
          ['--port', String(this._port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          /Ready to accept connections/i,
        );
        return;
      } catch (e) {
        // Only a first start may move to another port (someone took the free one meanwhile).
        if (!firstStart || attempt >= 3 || !/Address already in use/i.test(String(e))) throw e;
        this._port = 0;
      }
    }
  }

  /** SIGKILL to the server's process group, then waits for it to exit. Safe twice. */
  async kill(): Promise<void> {
    const c = this.child;
    this.child = null;
    await stopGroup(c?.child);
  }

  async destroy(): Promise<void> {
    await this.kill();
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * The directory of initdb and pg_ctl: $PPFILE_PG_BIN, else the newest /usr/lib/postgresql/N/bin
 * (Debian), else wherever pg_ctl is on PATH.
 */
export function postgresBinDir(): string {
  const fromEnv = process.env.PPFILE_PG_BIN;
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v) && existsSync(join(root, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    const newest = versions[0];
    if (newest !== undefined) return join(root, newest, 'bin');
  }
  const pgCtl = onPath('pg_ctl');
  if (pgCtl) return join(pgCtl, '..');
  throw new Error(
    'PostgreSQL binaries not found (no /usr/lib/postgresql/*/bin, no pg_ctl on PATH; set PPFILE_PG_BIN)',
  );
}

function run(
  command: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<string> {
  // PG* variables of the caller (PGDATA, PGPORT, ...) must not leak into the private cluster.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG')));
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stdout}${stderr}`));
        } else {
          resolve(stdout + stderr);
        }
      },
    );
  });
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const isRoot = () => process.getuid?.() === 0;

/** How to run a command as the `postgres` user: runuser when present, else su; directly when not root. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  if (!isRoot()) return [command, args];
  const runuser =
    ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((p) => existsSync(p)) ??
    onPath('runuser');
  if (runuser) return [runuser, ['-u', 'postgres', '--', command, ...args]];
  return ['su', ['postgres', '-s', '/bin/sh', '-c', [command, ...args].map(shellQuote).join(' ')]];
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const uid = Number((await run('id', ['-u', 'postgres'])).trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('no `postgres` user on this machine');
  return { uid, gid };
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    // A zombie (its parent, init here, has not reaped it yet) is gone for our purposes.
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * A PostgreSQL cluster of its own (Debian binaries, trust auth, user `postgres`, no fsync), in a
 * temporary directory, on a free port. As root, initdb and pg_ctl run as the `postgres` user.
 * The postmaster is daemonized by pg_ctl (its own session, output to a log file), so no pipe or
 * child handle of it stays in the test process.
 */
export class PrivatePostgres {
  private base: string | undefined;
  private _port: number;
  private _running = false;
  private readonly bin: string;

  constructor(options: { port?: number; binDir?: string } = {}) {
    this._port = options.port ?? 0;
    this.bin = options.binDir ?? postgresBinDir();
  }

  get port(): number {
    return this._port;
  }

  get running(): boolean {
    return this._running;
  }

  /** The temporary directory (data in `data/`, sockets in it, log in `postgres.log`). */
  get directory(): string | undefined {
    return this.base;
  }

  private get dataDir(): string {
    return join(this.base!, 'data');
  }

  url(database = 'postgres'): string {
    if (!this._port) throw new Error('PrivatePostgres: start() it first');
    return `postgresql://postgres@127.0.0.1:${this._port}/${database}`;
  }

  /** The end of the server log, for assertion messages. */
  async log(chars = 4000): Promise<string> {
    if (!this.base) return '';
    try {
      return (await readFile(join(this.base, 'postgres.log'), 'utf8')).slice(-chars);
    } catch {
      return '';
    }
  }

  private pgCtl(args: string[]): Promise<string> {
    const [cmd, full] = asPostgres(join(this.bin, 'pg_ctl'), args);
    return run(cmd, full, { cwd: this.base });
  }

  private async init(): Promise<void> {
    const base = await mkdtemp(join(tmpdir(), 'ppfile-pg-'));
    this.base = base;
    if (isRoot()) {
      const { uid, gid } = await postgresIds();
      await chown(base, uid, gid);
    }
    const [cmd, args] = asPostgres(join(this.bin, 'initdb'), [
      '-D',
      this.dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    await run(cmd, args, { cwd: base });
  }

  /** Creates the cluster on first call; starts (or restarts, same cluster and port) the server. */
  async start(): Promise<void> {
    if (this._running) return;
    if (!this.base) await this.init();
    if (!this._port) this._port = await freePort();
    const options = [
      `-p ${this._port}`,
      `-k ${shellQuote(this.base!)}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c full_page_writes=off',
      '-c synchronous_commit=off',
    ].join(' ');
    try {
      // -l: the postmaster writes to the log file, not to pg_ctl's stdout (our pipe), so
      // execFile returns as soon as pg_ctl does.
      await this.pgCtl([
        '-D',
        this.dataDir,
        '-l',
        join(this.base!, 'postgres.log'),
        '-o',
        options,
        '-w',
        '-t',
        '60',
        'start',
      ]);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n--- postgres.log ---\n${await this.log()}`, { cause: e });
    }
    this._running = true;
  }

  /** pg_ctl stop -m mode -w: 'fast' closes sessions cleanly, 'immediate' is a crash-like stop. */
  async stop(mode: 'smart' | 'fast' | 'immediate' = 'fast'): Promise<void> {
    if (!this._running || !this.base) return;
    await this.pgCtl(['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    this._running = false;
  }

  /**
   * The postmaster's pid from postmaster.pid, when that process is alive and really is this
   * cluster's postmaster (a stale file's pid may have been reused by another process).
   */
  postmasterPid(): number | undefined {
    if (!this.base) return undefined;
    try {
      const pid = Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (!Number.isInteger(pid) || pid <= 0 || processGone(pid)) return undefined;
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return cmdline.includes(this.dataDir) ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * SIGKILL to the postmaster's process group (postmaster and all backends: pg_ctl started it in
   * a session of its own), then waits until it is gone. A restart then does crash recovery.
   */
  async kill(): Promise<void> {
    const pid = this.postmasterPid();
    this._running = false;
    if (!pid) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
    }
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (!processGone(pid)) {
      if (Date.now() > deadline) throw new Error(`postmaster ${pid} still alive after SIGKILL`);
      await new Promise((r) => setTimeout(r, 20));
    }
    // The postmaster was pg_ctl's child, so init reaps it, maybe late (about 2 s on this machine):
    // as long as its pid exists (a zombie), a new postmaster takes the lock files for a live one's
    // and refuses to start. The process is dead, so they are stale: remove them (the old shared
    // memory segment, attached by nobody now, is reclaimed by the next postmaster).
    await rm(join(this.dataDir, 'postmaster.pid'), { force: true });
    await rm(join(this.base!, `.s.PGSQL.${this._port}.lock`), { force: true });
  }

  /** Stops the server if it runs, then deletes the cluster. Safe twice. */
  async destroy(): Promise<void> {
    if (!this.base) return;
    try {
      await this.stop('immediate');
    } catch {
      await this.kill(); // pg_ctl could not stop it: do not leave a postmaster behind
    }
    if (this.postmasterPid()) await this.kill();
    const base = this.base;
    this.base = undefined;
    this._running = false;
    await rm(base, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// S3

/** s3rver's fixed credentials (the same as libs/storage's startLocalS3). */
export const PRIVATE_S3_CREDENTIALS = LOCAL_S3_CREDENTIALS;

/**
 * s3rver in a child process of its own (test/support/s3rver-child.js), path-style, on a free
 * port. `stop()` kills the process (every socket really closes); the directory is kept, so
 * buckets and objects survive a restart on the same port. `destroy()` deletes it.
 */
export class PrivateS3 {
  private child: ReadyChild | null = null;
  private _port: number;
  private dir: string | undefined;
  private readonly ownsDirectory: boolean;

  constructor(options: { port?: number; directory?: string } = {}) {
    this._port = options.port ?? 0;
    this.dir = options.directory;
    this.ownsDirectory = options.directory === undefined;
  }

  get port(): number {
    return this._port;
  }

  get endpoint(): string {
    if (!this._port) throw new Error('PrivateS3: start() it first');
    return `http://127.0.0.1:${this._port}`;
  }

  get directory(): string | undefined {
    return this.dir;
  }

  get credentials(): { accessKey: string; secretKey: string } {
    return { ...LOCAL_S3_CREDENTIALS };
  }

  get running(): boolean {
    return this.child !== null && !hasExited(this.child.child);
  }

  get pid(): number | undefined {
    return this.running ? this.child!.child.pid : undefined;
  }

  async start(): Promise<void> {
    if (this.running) return;
    if (!this.dir) this.dir = await mkdtemp(join(tmpdir(), 'ppfile-s3-'));
    if (!this._port) this._port = await freePort();
    this.child = await spawnUntilReady(
      process.execPath,
      [join(__dirname, 's3rver-child.js'), String(this._port), this.dir],
      /S3RVER READY/,
      { cwd: join(__dirname, '..', '..') },
    );
  }

  /** SIGKILL to the s3rver process group, then waits for it to exit. Safe twice. */
  async stop(): Promise<void> {
    const c = this.child;
    this.child = null;
    await stopGroup(c?.child);
  }

  async kill(): Promise<void> {
    await this.stop();
  }

  /** Stops the server and deletes its directory (when this instance created it). Safe twice. */
  async destroy(): Promise<void> {
    await this.stop();
    if (this.dir && this.ownsDirectory) {
      const dir = this.dir;
      this.dir = undefined;
      await rm(dir, { recursive: true, force: true });
    }
  }
}
