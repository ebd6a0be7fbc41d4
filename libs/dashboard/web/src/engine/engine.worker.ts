/**
 * The engine's Web Worker (engine-worker.js): the page's checks run here, off the page's thread, so
 * that a large file never freezes it. `init` fetches the reference lists asset once; each later
 * request answers progress messages and one result or error (protocol.ts). Nothing is sent anywhere:
 * the only request this worker makes is the lists' GET.
 */
import { Engine, errorBody, type ReferenceListsAsset } from './engine';
import type { EngineLang, EngineReply, EngineRequest, SheetLocation } from './protocol';

declare const self: DedicatedWorkerGlobalScope;

let engine: Promise<Engine> | null = null;
let lang: EngineLang = 'en';

const reply = (message: EngineReply): void => self.postMessage(message);

/** The reference lists not loaded: the page says so in its own words (ENGINE_LISTS_FAILED), not as a bug. */
class ListsFailed extends Error {}

async function start(listsUrl: string, today: string, language: EngineLang): Promise<Engine> {
  let asset: ReferenceListsAsset;
  try {
    const response = await fetch(listsUrl, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    asset = (await response.json()) as ReferenceListsAsset;
  } catch (e) {
    throw new ListsFailed(e instanceof Error ? e.message : String(e));
  }
  return new Engine(asset, today, language);
}

/** The reply's `result`, and for an import where its holders were (beside the result, not in it). */
async function handle(request: EngineRequest): Promise<{ result: unknown; located?: SheetLocation }> {
  if (request.op === 'init') {
    lang = request.init.lang;
    engine = start(request.init.listsUrl, request.init.today, request.init.lang);
    return { result: (await engine).info() };
  }
  if (!engine) throw new Error('The engine was asked to work before init.');
  const e = await engine;
  const progress = (done: number, total: number) => reply({ id: request.id, type: 'progress', done, total });
  switch (request.op) {
    case 'validate-csv':
      return { result: e.validateCsv(new Uint8Array(request.bytes), request.form, progress) };
    case 'import':
      return e.importSheet(new Uint8Array(request.bytes), request.form, progress);
    case 'validate-body':
      return { result: e.validateBody(request.body, request.strict_references, progress) };
    case 'normalize-body':
      return { result: e.normalizeBody(request.body) };
  }
}

self.addEventListener('message', (event: MessageEvent<EngineRequest>) => {
  const request = event.data;
  handle(request).then(
    ({ result, located }) =>
      reply(
        located
          ? { id: request.id, type: 'result', result, located }
          : { id: request.id, type: 'result', result },
      ),
    (e: unknown) => {
      if (e instanceof ListsFailed) {
        const error = {
          status: 503,
          code: 'ENGINE_LISTS_FAILED',
          message: 'The reference lists could not be loaded.',
        };
        return reply({ id: request.id, type: 'error', error: { ...error, details: { reason: e.message } } });
      }
      const error = errorBody(e, lang);
      // An unexpected failure's own words help whoever reads the console, never the file's data:
      // the libraries' errors name no value (STYLE.md).
      if (error.code === 'INTERNAL_ERROR' && e instanceof Error) error.details = { reason: e.message };
      reply({ id: request.id, type: 'error', error });
    },
  );
});
