/**
 * The built CLI (`node bin/ppfile.js …`, dist/cli) run for a test, in one of two ways:
 *
 * - in process, when the process adds nothing: the same built code (dist/cli/apps/cli/src/main.js,
 *   loaded once per test file in a worker thread, with Node's own require) runs `run(argv, output,
 *   env)` as bin/ppfile.js does, its standard output and error captured, its status answered. The
 *   call stays synchronous (the test thread waits on Atomics.wait), so a test reads as with
 *   spawnSync. A CLI start costs ~0.7 s of CPU (Node, the rules, the reference lists); 200 of them
 *   were most of the CLI suites' time.
 * - as a real process (`node bin/ppfile.js`), for what only a process shows: bytes on standard input
 *   (`input`), Node's own options (NODE_OPTIONS: heap limits), another working directory (`cwd`), or
 *   when the test asks (`spawn: true`: stdout bytes, exit codes, signals, `-o` replacement).
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

const ROOT = path.resolve(__dirname, '../..');
export const CLI_BIN = path.join(ROOT, 'bin', 'ppfile.js');
const CLI_MAIN = path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'main.js');

export interface CliRun {
  status: number | null;
  stdout: Buffer;
  stderr: Buffer;
}

export interface CliOptions {
  env?: NodeJS.ProcessEnv;
  /** Bytes on standard input: a real process. */
  input?: string | Buffer;
  /** A working directory other than the repository's: a real process. */
  cwd?: string;
  /** A real process even when nothing above asks for one. */
  spawn?: boolean;
  timeoutMs?: number;
}

/** Runs the CLI: in process when it can be (see above), else `node bin/ppfile.js`. */
export function runCli(args: string[], options: CliOptions = {}): CliRun {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? ROOT;
  if (options.spawn || options.input !== undefined || env.NODE_OPTIONS || path.resolve(cwd) !== process.cwd())
    return spawnCli(args, { ...options, env, cwd });
  return inProcess(args, env, options.timeoutMs ?? 60_000);
}

function spawnCli(args: string[], options: CliOptions): CliRun {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    timeout: options.timeoutMs ?? 60_000,
    maxBuffer: 64 << 20,
    input: options.input,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The worker thread: loads the built CLI once, then runs one command per message. What bin/ppfile.js
 * does around `run` is done here too: an unexpected rejection is one `ppfile: …` line and status 2.
 */
const WORKER = `
const { workerData } = require('node:worker_threads');
const { port, signal, main } = workerData;
let cli;
let loadError;
try {
  cli = require(main);
} catch (e) {
  loadError = e;
}
port.on('message', async ({ args, env }) => {
  const out = [];
  const err = [];
  const output = {
    out: (text) => out.push(Buffer.from(text)),
    err: (text) => err.push(Buffer.from(text)),
    progress: () => {}, // standard error is not a terminal
  };
  let status;
  try {
    if (loadError) throw loadError;
    status = await cli.run(args, output, env);
  } catch (e) {
    err.push(Buffer.from('ppfile: ' + (e && e.message ? String(e.message).split('\\n').filter(Boolean).pop() : e) + '\\n'));
    status = 2;
  }
  port.postMessage({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err) });
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

let thread: { worker: Worker; port: MessagePort; signal: Int32Array } | null = null;

function startThread(): NonNullable<typeof thread> {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { port: port2, signal, main: CLI_MAIN },
    transferList: [port2],
  });
  worker.unref();
  port1.unref();
  return { worker, port: port1, signal };
}

function inProcess(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): CliRun {
  thread ??= startThread();
  const { port, signal, worker } = thread;
  Atomics.store(signal, 0, 0);
  port.postMessage({ args, env: { ...env } });
  if (Atomics.wait(signal, 0, 0, timeoutMs) === 'timed-out') {
    thread = null;
    void worker.terminate();
    throw new Error(`ppfile ${args.join(' ')}: no answer within ${timeoutMs} ms (in process)`);
  }
  const answer = receiveMessageOnPort(port)?.message as
    { status: number; stdout: Uint8Array; stderr: Uint8Array } | undefined;
  if (!answer) throw new Error(`ppfile ${args.join(' ')}: the CLI thread answered nothing`);
  const buf = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  return { status: answer.status, stdout: buf(answer.stdout), stderr: buf(answer.stderr) };
}
