/**
 * The page's side of the engine worker: one promise per request, progress through a callback. The
 * worker is started and initialised (reference lists fetched) when the client is made; every call
 * waits for that. A worker that fails (an `error` event, a failed init) or is cancelled is
 * terminated, and the next request starts a new one (a failed init is retried after a short,
 * growing wait). Bytes are transferred to the worker, not copied: the caller's ArrayBuffer is empty
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

/** The engine's own failures (not the file's): the page words them itself (engine-errors). */
export const ENGINE_FAILED = 'ENGINE_FAILED';
export const ENGINE_STOPPED = 'ENGINE_STOPPED';

/** The waits before a new init after failed ones: 1 s, 2 s, 4 s, then 8 s. */
const BACKOFF_MS = [1000, 2000, 4000, 8000];

interface Running {
  worker: Worker;
  ready: Promise<EngineResults['init']>;
}

export class EngineClient {
  private running: Running | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Inits failed in a row, and when the last one failed (the next waits out its backoff). */
  private failures = 0;
  private failedAt = 0;

  constructor(
    private readonly workerUrl: string,
    private readonly init: EngineInit,
    private readonly wait: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    // Started at once: the reference lists load while the person chooses a file.
    this.start().catch(() => undefined);
  }

  /** Resolves when a worker has loaded the reference lists (starting one if none runs). */
  get ready(): Promise<EngineResults['init']> {
    return this.start();
  }

  validateCsv(
    bytes: ArrayBuffer,
    form: CsvForm,
    onProgress?: ProgressCallback,
  ): Promise<EngineResults['validate-csv']> {
    return this.after((w) =>
      this.sendTo<'validate-csv'>(w, { op: 'validate-csv', bytes, form }, [bytes], onProgress),
    );
  }

  /** The import's answer (`result`, the API's JSON) and where its holders were in the sheet (`located`). */
  importSheet(bytes: ArrayBuffer, form: ImportForm, onProgress?: ProgressCallback): Promise<LocatedImport> {
    return this.after((w) =>
      this.request(w, { op: 'import', bytes, form }, [bytes], onProgress, true),
    ) as Promise<LocatedImport>;
  }

  validateBody(
    body: DeclarationBody,
    strict: boolean,
    onProgress?: ProgressCallback,
  ): Promise<EngineResults['validate-body']> {
    return this.after((w) =>
      this.sendTo<'validate-body'>(
        w,
        { op: 'validate-body', body, strict_references: strict },
        [],
        onProgress,
      ),
    );
  }

  normalizeBody(body: DeclarationBody): Promise<EngineResults['normalize-body']> {
    return this.after((w) => this.sendTo<'normalize-body'>(w, { op: 'normalize-body', body }, []));
  }

  /** Stops the worker (a cancelled check, a page that goes); pending requests reject, the next starts a new one. */
  terminate(): void {
    this.stop({ status: 499, code: ENGINE_STOPPED, message: 'The checker was stopped.' });
  }

  private start(): Promise<EngineResults['init']> {
    if (this.running) return this.running.ready;
    const delay = this.failures
      ? Math.max(0, this.failedAt + BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length) - 1]! - Date.now())
      : 0;
    const worker = new Worker(this.workerUrl);
    const running: Running = { worker, ready: Promise.resolve(null as never) };
    this.running = running;
    worker.addEventListener('message', (event: MessageEvent<EngineReply>) => this.receive(event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (this.running !== running) return;
      this.stop({
        status: 500,
        code: ENGINE_FAILED,
        message: 'The checker stopped.',
        details: event.message ? { reason: event.message } : {},
      });
    });
    running.ready = (delay > 0 ? this.wait(delay) : Promise.resolve())
      .then(() => {
        if (this.running !== running)
          throw new EngineError({ status: 499, code: ENGINE_STOPPED, message: 'The checker was stopped.' });
        return this.sendTo<'init'>(worker, { op: 'init', init: this.init }, []);
      })
      .then(
        (info) => {
          this.failures = 0;
          return info;
        },
        (error: unknown) => {
          // A failed init (the lists not loaded): this worker is dropped, the next request starts another.
          if (this.running === running) {
            this.failures++;
            this.failedAt = Date.now();
            this.running = null;
            worker.terminate();
          }
          throw error;
        },
      );
    return running.ready;
  }

  private stop(body: EngineErrorBody): void {
    const running = this.running;
    this.running = null;
    running?.worker.terminate();
    this.failAll(body);
  }

  private after<T>(request: (worker: Worker) => Promise<T>): Promise<T> {
    return this.start().then(() => {
      const running = this.running;
      if (!running)
        throw new EngineError({ status: 499, code: ENGINE_STOPPED, message: 'The checker was stopped.' });
      return request(running.worker);
    });
  }

  private sendTo<K extends keyof EngineResults>(
    worker: Worker,
    message: Omitted<EngineRequest>,
    transfer: Transferable[],
    onProgress?: ProgressCallback,
  ): Promise<EngineResults[K]> {
    return this.request(worker, message, transfer, onProgress, false) as Promise<EngineResults[K]>;
  }

  /** Resolves with the reply's `result`, or with `{ result, located }` when `located` is asked for. */
  private request(
    worker: Worker,
    message: Omitted<EngineRequest>,
    transfer: Transferable[],
    onProgress: ProgressCallback | undefined,
    located: boolean,
  ): Promise<unknown> {
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, located });
      worker.postMessage({ ...message, id }, transfer);
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
          code: ENGINE_FAILED,
          message: 'The checker did not say where the rows were.',
        }),
      );
  }

  private failAll(body: EngineErrorBody): void {
    for (const pending of this.pending.values()) pending.reject(new EngineError(body));
    this.pending.clear();
  }
}
