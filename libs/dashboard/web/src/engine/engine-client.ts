/**
 * The page's side of the engine worker: one promise per request, progress through a callback. The
 * worker is started and initialised (reference lists fetched) when the client is made; every call
 * waits for that. Bytes are transferred to the worker, not copied: the caller's ArrayBuffer is empty
 * afterwards.
 */
import type {
  CsvForm,
  DeclarationBody,
  EngineErrorBody,
  EngineInit,
  EngineReply,
  EngineRequest,
  EngineResults,
  ImportForm,
  LocatedImport,
} from './protocol';

export type ProgressCallback = (done: number, total: number) => void;

/** A request the engine refused, with the status, code, message and details the API would answer. */
export class EngineError extends Error implements EngineErrorBody {
  readonly status: number;
  readonly code: string;
  readonly details?: unknown;

  constructor(body: EngineErrorBody) {
    super(body.message);
    this.name = 'EngineError';
    this.status = body.status;
    this.code = body.code;
    this.details = body.details;
  }
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: EngineError) => void;
  onProgress?: ProgressCallback;
  /** The caller takes `{ result, located }` (the import), not the result alone. */
  located: boolean;
}

type Omitted<R> = R extends unknown ? Omit<R, 'id'> : never;

export class EngineClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Resolves when the worker has loaded the reference lists; every request waits for it. */
  readonly ready: Promise<EngineResults['init']>;

  constructor(workerUrl: string, init: EngineInit) {
    this.worker = new Worker(workerUrl);
    this.worker.addEventListener('message', (event: MessageEvent<EngineReply>) => this.receive(event.data));
    this.worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.failAll({ status: 500, code: 'ENGINE_FAILED', message: event.message || 'The checker stopped.' });
    });
    this.ready = this.send<'init'>({ op: 'init', init }, []);
    // A failed start is reported by each call that waits for it, not as an unhandled rejection.
    this.ready.catch(() => undefined);
  }

  validateCsv(
    bytes: ArrayBuffer,
    form: CsvForm,
    onProgress?: ProgressCallback,
  ): Promise<EngineResults['validate-csv']> {
    return this.after(() =>
      this.send<'validate-csv'>({ op: 'validate-csv', bytes, form }, [bytes], onProgress),
    );
  }

  /** The import's answer (`result`, the API's JSON) and where its holders were in the sheet (`located`). */
  importSheet(bytes: ArrayBuffer, form: ImportForm, onProgress?: ProgressCallback): Promise<LocatedImport> {
    return this.after(() =>
      this.request({ op: 'import', bytes, form }, [bytes], onProgress, true),
    ) as Promise<LocatedImport>;
  }

  validateBody(
    body: DeclarationBody,
    strict: boolean,
    onProgress?: ProgressCallback,
  ): Promise<EngineResults['validate-body']> {
    return this.after(() =>
      this.send<'validate-body'>({ op: 'validate-body', body, strict_references: strict }, [], onProgress),
    );
  }

  normalizeBody(body: DeclarationBody): Promise<EngineResults['normalize-body']> {
    return this.after(() => this.send<'normalize-body'>({ op: 'normalize-body', body }, []));
  }

  /** Stops the worker; pending requests reject. */
  terminate(): void {
    this.worker.terminate();
    this.failAll({ status: 499, code: 'ENGINE_STOPPED', message: 'The checker was stopped.' });
  }

  private after<T>(request: () => Promise<T>): Promise<T> {
    return this.ready.then(request);
  }

  private send<K extends keyof EngineResults>(
    message: Omitted<EngineRequest>,
    transfer: Transferable[],
    onProgress?: ProgressCallback,
  ): Promise<EngineResults[K]> {
    return this.request(message, transfer, onProgress, false) as Promise<EngineResults[K]>;
  }

  /** Resolves with the reply's `result`, or with `{ result, located }` when `located` is asked for. */
  private request(
    message: Omitted<EngineRequest>,
    transfer: Transferable[],
    onProgress: ProgressCallback | undefined,
    located: boolean,
  ): Promise<unknown> {
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, located });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  private receive(reply: EngineReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'progress') {
      pending.onProgress?.(reply.done, reply.total);
      return;
    }
    this.pending.delete(reply.id);
    if (reply.type !== 'result') pending.reject(new EngineError(reply.error));
    else if (!pending.located) pending.resolve(reply.result);
    else if (reply.located) pending.resolve({ result: reply.result, located: reply.located });
    else
      pending.reject(
        new EngineError({
          status: 500,
          code: 'ENGINE_FAILED',
          message: 'The checker did not say where the rows were.',
        }),
      );
  }

  private failAll(body: EngineErrorBody): void {
    for (const pending of this.pending.values()) pending.reject(new EngineError(body));
    this.pending.clear();
  }
}
