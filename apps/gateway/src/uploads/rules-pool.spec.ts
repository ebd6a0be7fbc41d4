import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ReferenceDirectory } from '@ppfile/refdata';
import { RequestError } from '@ppfile/rules';
import type { GatewayConfig } from '../config';
import { DEFERRED_BODY_BYTES, RulesPool } from './rules-pool';
import { THREAD_FAILED, type TaskOf } from './rules-task';

/**
 * The pool's own behaviour, with a stand-in thread script (plain JavaScript, as the compiled
 * rules.worker.js is): what the body says decides what the thread does.
 */
const STAND_IN = `
const { threadId, workerData } = require('node:worker_threads');
module.exports = (task) => {
  const text = Buffer.from(task.body).toString('utf8');
  if (text === 'exit') process.exit(3);
  if (text === 'spin') for (;;);
  if (text.startsWith('sleep ')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(text.slice(6)));
  if (text === 'fail') throw new Error('${THREAD_FAILED}: TypeError');
  if (text === 'refuse') {
    const details = { max: task.maxRows };
    return { ok: false, refused: { code: 'LINE_LIMIT_EXCEEDED', message: 'too many', details } };
  }
  return { ok: true, response: { text, threadId, dir: workerData.referenceDataDir } };
};
`;

let dir: string;
let script: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rules-pool-'));
  script = path.join(dir, 'stand-in.worker.js');
  writeFileSync(script, STAND_IN);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class StandInPool extends RulesPool {
  protected override workerScript(): string {
    return script;
  }
}

const config = (rulesThreads: number) => ({ rulesThreads, referenceDataDir: '/lists' }) as GatewayConfig;
const task = (text: string): TaskOf<'validate'> => ({
  kind: 'validate',
  body: new Uint8Array(Buffer.from(text)),
  lang: 'en',
  maxRows: 7,
  today: 20261130,
});
type Echo = { text: string; threadId: number; dir: string };

describe('RulesPool', () => {
  let pool: RulesPool;
  afterEach(async () => {
    await pool?.onApplicationShutdown();
  });

  it('runs tasks in RULES_THREADS threads, with the configured reference directory', async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(2));
    expect(pool.threads).toBe(2);
    const answers = (await Promise.all(
      ['a', 'b', 'c', 'd'].map((t, i) => pool.run(task(t), `org-${i}`)),
    )) as unknown as Echo[];
    expect(answers.map((a) => a.text)).toEqual(['a', 'b', 'c', 'd']);
    expect(answers.every((a) => a.threadId > 0 && a.dir === '/lists')).toBe(true);
    expect(new Set(answers.map((a) => a.threadId)).size).toBeLessThanOrEqual(2);
  });

  it('transfers the body when it owns its memory, copies a view of a larger buffer', async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(1));
    const owned = task('owned');
    await pool.run(owned, 'org');
    expect(owned.body.byteLength).toBe(0); // detached: it moved to the thread
    const shared = Buffer.from('xxsharedxx');
    const view = { ...task(''), body: shared.subarray(2, 8) };
    expect(((await pool.run(view, 'org')) as unknown as Echo).text).toBe('shared');
    expect(shared.toString()).toBe('xxsharedxx');
  });

  it("re-throws a thread's refusal as the RequestError the inline path throws", async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(1));
    const refused = await pool.run(task('refuse'), 'org').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RequestError);
    expect(refused).toMatchObject({ code: 'LINE_LIMIT_EXCEEDED', message: 'too many', details: { max: 7 } });
    await expect(pool.run(task('fail'), 'org')).rejects.toThrow(`${THREAD_FAILED}: TypeError`);
  });

  it('a thread that dies fails its request only, and is replaced', async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(1));
    const before = (await pool.run(task('a'), 'org')) as unknown as Echo;
    await expect(pool.run(task('exit'), 'org')).rejects.toThrow('rules thread died');
    const after = (await pool.run(task('b'), 'org')) as unknown as Echo;
    expect(after.text).toBe('b');
    expect(after.threadId).not.toBe(before.threadId);
  });

  it('runs inline with RULES_THREADS=0, and without a compiled thread script', async () => {
    for (const p of [
      new StandInPool(new ReferenceDirectory(null), config(0)),
      new RulesPool(new ReferenceDirectory(null), config(2)),
    ]) {
      pool = p;
      expect(pool.threads).toBe(0);
      await expect(pool.run(task('{'), 'org')).rejects.toMatchObject({ code: 'INVALID_JSON' });
    }
  });

  it('sends every spreadsheet and CSV to a thread, however small (a few KB of zip may expand to 200 MB)', async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(1));
    const form = { type: 'adf', declarant: 'employer', filename: 'x.csv' };
    const base = { lang: 'en' as const, maxRows: 50, today: 20261130 };
    for (const text of ['a|b\r\n', 'x'.repeat(DEFERRED_BODY_BYTES + 1)]) {
      const body = new Uint8Array(Buffer.from(text));
      const fixed = (await pool.run({ ...base, kind: 'fix', form, body }, 'org')) as unknown as Echo;
      expect([fixed.text, fixed.threadId > 0]).toEqual([text, true]);
      const imported = await pool.run(
        { ...base, kind: 'import', form, body: new Uint8Array(Buffer.from(text)) },
        'org',
      );
      expect((imported as unknown as Echo).threadId).toBeGreaterThan(0);
    }
    // Inline without threads: the real import and fix.
    pool = new RulesPool(new ReferenceDirectory(null), config(2));
    const inline = await pool.run(
      { ...base, kind: 'fix', form, body: new Uint8Array(Buffer.from('a|b\r\n')) },
      'org',
    );
    expect(inline.validation.file_rejected).toBe(true);
    const imported = pool.run(
      { ...base, kind: 'import', form, body: new Uint8Array(Buffer.from('a;b\n')) },
      'org',
    );
    await expect(imported).rejects.toMatchObject({ code: 'UNREADABLE_FILE' });
  });

  it('stops an import or fix that runs past RULES_TIME_BUDGET_SECONDS: 400 UNREADABLE_FILE too_slow, its thread replaced', async () => {
    pool = new StandInPool(new ReferenceDirectory(null), { ...config(1), rulesTimeBudgetSeconds: 1 });
    const form = { type: 'adf', declarant: 'employer', filename: 'x.xlsx' };
    const spin = { kind: 'import' as const, form, lang: 'fr' as const, maxRows: 50, today: 20261130 };
    const before = (await pool.run(task('a'), 'org')) as unknown as Echo;
    const stopped = await pool
      .run({ ...spin, body: new Uint8Array(Buffer.from('spin')) }, 'org')
      .catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(RequestError);
    expect(stopped).toMatchObject({ code: 'UNREADABLE_FILE', details: { reason: 'too_slow' } });
    expect((stopped as Error).message).toContain('temps accordé');
    const after = (await pool.run(task('b'), 'org')) as unknown as Echo;
    expect(after.text).toBe('b');
    expect(after.threadId).not.toBe(before.threadId);
  });

  it("shares the threads: one organization's queued work never holds every thread", async () => {
    pool = new StandInPool(new ReferenceDirectory(null), config(2));
    const finished: string[] = [];
    const run = (text: string, owner: string) =>
      pool.run(task(text), owner).then(() => finished.push(`${owner}:${text}`));
    // Organization A sends four slow tasks first; B sends one quick task after them.
    const a = ['sleep 300', 'sleep 301', 'sleep 302', 'sleep 303'].map((t) => run(t, 'A'));
    const b = run('quick', 'B');
    await Promise.all([...a, b]);
    // B ran beside A's first task, in the other thread, not after A's four.
    expect(finished[0]).toBe('B:quick');
    expect(finished.filter((f) => f.startsWith('A:'))).toEqual([
      'A:sleep 300',
      'A:sleep 301',
      'A:sleep 302',
      'A:sleep 303',
    ]);
  });
});
