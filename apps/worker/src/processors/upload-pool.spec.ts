import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ReferenceDirectory } from '@ppfile/refdata';
import { uploadOutcome, type UploadTask } from '@ppfile/jobs';
import type { WorkerConfig } from '../config';
import { UploadPool } from './upload-pool';
import { UPLOAD_THREAD_FAILED } from './upload-task';

/**
 * The pool's own behaviour, with a stand-in thread script (plain JavaScript, as the compiled
 * upload.thread.js is, and saying "started" as it does): what the bytes say decides what the thread
 * does. The real thread script is exercised by test/worker-uploads.e2e-spec.ts, built.
 */
const STAND_IN = `
const { parentPort, threadId } = require('node:worker_threads');
module.exports = (job) => {
  parentPort.postMessage({ uploadStarted: job.token });
  const text = Buffer.from(job.bytes).toString('utf8');
  if (text === 'spin') for (;;);
  if (text === 'exit') process.exit(3);
  if (text === 'fail') throw new Error('${UPLOAD_THREAD_FAILED}: TypeError');
  const busy = /^busy (\\d+)$/.exec(text);
  if (busy) { const end = Date.now() + Number(busy[1]); while (Date.now() < end); }
  return { ok: true, response: { text, threadId, kind: job.task.kind, lang: job.ctx.lang } };
};
`;

let dir: string;
let script: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'upload-pool-'));
  script = path.join(dir, 'stand-in.thread.js');
  writeFileSync(script, STAND_IN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class StandInPool extends UploadPool {
  protected override threadScript(): string {
    return script;
  }
}

const config = (threads: number, budgetMs: number) =>
  ({
    concurrency: { validate: threads },
    uploadTimeBudgetMs: budgetMs,
    referenceDataDir: null,
  }) as WorkerConfig;
const task: UploadTask = { kind: 'fix', form: { type: 'adf', declarant: 'employer' } };
const ctx = { lang: 'fr' as const, maxRows: 50, today: 20261130 };
const bytes = (text: string) => Buffer.from(text);
type Echo = { text: string; threadId: number; kind: string; lang: string };
const answer = (outcome: unknown) => (outcome as { response: Echo }).response;

describe('UploadPool (issue 32, finding 3)', () => {
  let pool: UploadPool;
  afterEach(async () => {
    await pool?.onApplicationShutdown();
  });

  it('runs an import or fix in a thread, one per concurrent upload', async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(2, 5000));
    expect(pool.threads).toBe(2);
    const outcome = await pool.run(task, bytes('hello'), ctx);
    expect(outcome).toEqual({
      ok: true,
      response: { text: 'hello', threadId: expect.any(Number), kind: 'fix', lang: 'fr' },
    });
    expect(answer(outcome).threadId).toBeGreaterThan(0);
  });

  it('stops a thread past the budget: UNREADABLE_FILE too_slow in the upload language, and the next upload is served', async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(1, 100));
    const before = answer(await pool.run(task, bytes('a'), ctx));
    const started = Date.now();
    const outcome = await pool.run(task, bytes('spin'), ctx);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome).toMatchObject({
      ok: false,
      refused: { code: 'UNREADABLE_FILE', details: { reason: 'too_slow' } },
    });
    expect((outcome as { refused: { message: string } }).refused.message).toMatch(/temps accordé/);
    const after = answer(await pool.run(task, bytes('b'), ctx));
    expect(after.text).toBe('b');
    // The stopped thread was terminated; another took its place.
    expect(after.threadId).not.toBe(before.threadId);
  });

  it("counts each upload's budget from the moment its thread starts it, not while it waits for one", async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(1, 600));
    // One thread, two uploads of 350 ms: the second waits 350 ms, runs 350 ms, and is not stopped.
    const outcomes = await Promise.all([
      pool.run(task, bytes('busy 350'), ctx),
      pool.run(task, bytes('busy 350'), ctx),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
  });

  it("re-throws a thread's own failure; a thread that dies fails its upload only", async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(1, 5000));
    await expect(pool.run(task, bytes('fail'), ctx)).rejects.toThrow(`${UPLOAD_THREAD_FAILED}: TypeError`);
    await expect(pool.run(task, bytes('exit'), ctx)).rejects.toThrow('upload thread died');
    expect(answer(await pool.run(task, bytes('c'), ctx)).text).toBe('c');
  });

  it('transfers the bytes when they own their memory, copies a view of a larger buffer', async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(1, 5000));
    const owned = Buffer.from(new Uint8Array(Buffer.from('owned')).buffer);
    await pool.run(task, owned, ctx);
    expect(owned.byteLength).toBe(0); // detached: it moved to the thread
    const shared = Buffer.from('xxsharedxx');
    expect(answer(await pool.run(task, shared.subarray(2, 8), ctx)).text).toBe('shared');
    expect(shared.toString()).toBe('xxsharedxx');
  });

  it('runs inline, on the same function, without a compiled thread script (the test runner)', async () => {
    pool = new UploadPool(new ReferenceDirectory(null), config(2, 1));
    expect(pool.threads).toBe(0);
    const csv = bytes('not|the|header\r\n');
    const outcome = await pool.run(task, csv, ctx);
    expect(outcome).toEqual(uploadOutcome(task, csv, ctx, new ReferenceDirectory(null)));
    expect(outcome.ok && outcome.response).toMatchObject({ validation: { valid: false } });
  });
});
