import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { EngineClient, EngineError } from './engine-client';
import { ENGINE_FAILURE_TEXTS, engineFailure, refusalText } from './engine-errors';
import type { EngineReply, EngineRequest } from './protocol';

/** A stand-in for the engine worker: answers init as told, holds every other request unanswered. */
class FakeWorker {
  static made: FakeWorker[] = [];
  static initFails = 0;
  terminated = false;
  readonly received: EngineRequest[] = [];
  private readonly listeners: Record<string, ((event: unknown) => void)[]> = {};

  constructor(readonly url: string) {
    FakeWorker.made.push(this);
  }

  addEventListener(type: string, listener: (event: unknown) => void): void {
    (this.listeners[type] ??= []).push(listener);
  }

  postMessage(request: EngineRequest): void {
    this.received.push(request);
    if (request.op !== 'init') return;
    queueMicrotask(() => {
      if (FakeWorker.initFails > 0) {
        FakeWorker.initFails--;
        this.reply({
          id: request.id,
          type: 'error',
          error: { status: 503, code: 'ENGINE_LISTS_FAILED', message: 'x', details: { reason: 'HTTP 503' } },
        });
      } else this.reply({ id: request.id, type: 'result', result: { ready: true } });
    });
  }

  reply(message: EngineReply): void {
    for (const listener of this.listeners.message ?? []) listener({ data: message });
  }

  fail(message: string): void {
    for (const listener of this.listeners.error ?? []) listener({ message, preventDefault: () => undefined });
  }

  terminate(): void {
    this.terminated = true;
  }
}

const waits: number[] = [];
const client = () =>
  new EngineClient('/w.js', { listsUrl: '/l.json', today: '2026-01-15', lang: 'en' }, (ms) => {
    waits.push(ms);
    return Promise.resolve();
  });
const body = { type: 'adf', declarations: [] } as never;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('EngineClient', () => {
  beforeEach(() => {
    FakeWorker.made = [];
    FakeWorker.initFails = 0;
    waits.length = 0;
    (globalThis as { Worker?: unknown }).Worker = FakeWorker;
  });
  afterEach(() => {
    delete (globalThis as { Worker?: unknown }).Worker;
  });

  it('starts a new worker for the next request after an error event, the pending one rejected', async () => {
    const engine = client();
    await engine.ready;
    const pending = engine.validateBody(body, true);
    await settle();
    FakeWorker.made[0]!.fail('boom');
    await expect(pending).rejects.toMatchObject({ code: 'ENGINE_FAILED', details: { reason: 'boom' } });
    expect(FakeWorker.made[0]!.terminated).toBe(true);
    void engine.validateBody(body, true);
    await settle();
    expect(FakeWorker.made).toHaveLength(2);
    expect(FakeWorker.made[1]!.received.map((r) => r.op)).toEqual(['init', 'validate-body']);
  });

  it('drops a worker whose init failed and retries on the next request after a backoff', async () => {
    FakeWorker.initFails = 2;
    const engine = client();
    await expect(engine.ready).rejects.toMatchObject({ code: 'ENGINE_LISTS_FAILED' });
    expect(FakeWorker.made[0]!.terminated).toBe(true);
    await expect(engine.validateBody(body, true)).rejects.toBeInstanceOf(EngineError);
    expect(waits).toHaveLength(1);
    void engine.validateBody(body, true);
    await settle();
    expect(FakeWorker.made).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
    expect(FakeWorker.made[2]!.received.map((r) => r.op)).toEqual(['init', 'validate-body']);
  });

  it('cancels an unanswered request by stopping its worker; the next request starts a fresh one', async () => {
    const engine = client();
    const pending = engine.validateBody(body, true);
    await settle();
    engine.terminate();
    await expect(pending).rejects.toMatchObject({ code: 'ENGINE_STOPPED' });
    expect(FakeWorker.made[0]!.terminated).toBe(true);
    void engine.normalizeBody(body);
    await settle();
    expect(FakeWorker.made).toHaveLength(2);
    expect(waits).toEqual([]);
  });

  it('words the engine’s own failures plainly, in English and French, with the reason as a hint', () => {
    const lists = new EngineError({
      status: 503,
      code: 'ENGINE_LISTS_FAILED',
      message: 'x',
      details: { reason: 'HTTP 503' },
    });
    expect(engineFailure(lists, ENGINE_FAILURE_TEXTS.en)).toMatch(
      /reference lists .* could not be loaded.*\(HTTP 503\)$/,
    );
    expect(engineFailure(lists, ENGINE_FAILURE_TEXTS.fr)).toMatch(/^Les listes de référence/);
    const internal = new EngineError({
      status: 500,
      code: 'INTERNAL_ERROR',
      message: 'An unexpected error occurred.',
    });
    expect(engineFailure(internal, ENGINE_FAILURE_TEXTS.en)).not.toMatch(/unexpected error occurred/);
    expect(
      engineFailure(
        new EngineError({ status: 422, code: 'EMPTY_FILE', message: 'm' }),
        ENGINE_FAILURE_TEXTS.en,
      ),
    ).toBeNull();
  });

  it('shows a refusal of the file as the engine words it, with the French apostrophe in French', () => {
    expect(refusalText("Le fichier n'est pas un tableur XLSX ou CSV lisible.", 'fr')).toBe(
      'Le fichier n\u2019est pas un tableur XLSX ou CSV lisible.',
    );
    expect(refusalText("The file isn't readable.", 'en')).toBe("The file isn't readable.");
  });
});
