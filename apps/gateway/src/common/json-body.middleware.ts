import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { NextFunction, Response } from 'express';
import { ApiError, REQUEST_FIELD_PROBLEMS, type RequestErrorCode } from '@ppfile/contract';
import { CURRENT_LIMITS, parseJsonBody } from '@ppfile/rules';
import { sendApiError } from './api-exception.filter';
import type { GatewayRequest } from './request-context';

export const MAX_BODY_BYTES = CURRENT_LIMITS.maxBytes;

/**
 * How deeply objects and arrays may be nested in a JSON body: the root object or array is level 1.
 * A declaration body needs 5 (body › declarations › declaration › training › formacodes). JSON.parse
 * takes any depth, but a recursive walk of what it returns (a hash, JSON.stringify, structuredClone)
 * overflows the stack near 10,000 levels: a body is refused well before.
 */
export const MAX_JSON_DEPTH = 32;
/** The path of a too-deep value is cut there (whole segments), and a key at KEY_CHARS characters. */
const PATH_CHARS = 200;
const KEY_CHARS = 40;
/** Content-Encoding a JSON body may have (inflated by the body reader, at most MAX_BODY_BYTES inflated). */
export const JSON_CONTENT_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'] as const;

/** How many bytes of a body are joined per turn of the event loop (a few milliseconds). */
export const JOIN_SLICE_BYTES = 1024 * 1024;

/**
 * A body's bytes: the chunks as they arrive, then joined into one buffer a slice at a time (issue 32:
 * a 50,000-row chunked validate held /health/live 170 ms). Joining in one step, as body-parser and
 * multer's memory storage do, writes the whole body at once, on the event loop, into memory the
 * process may never have touched: up to 36 ms for 10 MB on this machine, nearly all of it the system
 * handing over fresh pages. Here the join copies JOIN_SLICE_BYTES per turn of the event loop, the
 * requests waiting meanwhile served between two. The result is a plain Buffer that is exactly the
 * body, over an ArrayBuffer of its own: a rules thread receives it without a copy (RulesPool
 * transfers it). (A resizable ArrayBuffer filled as the chunks arrive would spare the join, but the
 * rules read a typed array over one several times slower in Node 20.)
 */
export class BodyBytes {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  constructor(readonly maxBytes: number) {}

  get byteLength(): number {
    return this.length;
  }

  /** Keeps a chunk; false (and nothing kept) when it would take the body past `maxBytes`. */
  push(chunk: Uint8Array): boolean {
    if (this.length + chunk.byteLength > this.maxBytes) return false;
    this.chunks.push(chunk);
    this.length += chunk.byteLength;
    return true;
  }

  /** The chunks joined, JOIN_SLICE_BYTES per turn of the event loop (a small body in the same turn). */
  async bytes(): Promise<Buffer> {
    const body = Buffer.allocUnsafeSlow(this.length);
    let at = 0;
    let sinceTurn = 0;
    for (const chunk of this.chunks.splice(0)) {
      if (sinceTurn >= JOIN_SLICE_BYTES) {
        await new Promise((resolve) => setImmediate(resolve));
        sinceTurn = 0;
      }
      body.set(chunk, at);
      at += chunk.byteLength;
      sinceTurn += chunk.byteLength;
    }
    return body;
  }
}

/** Why a body could not be read: larger than the limit, compressed in a way we do not inflate, or cut or corrupt. */
type BodyProblem = 'too_large' | 'encoding' | 'unreadable';

const INFLATE: Record<string, () => Transform> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * The body's bytes, inflated when it is compressed (JSON_CONTENT_ENCODINGS; else 'encoding'). The
 * limit counts the inflated bytes (a 20 KB gzip bomb stops at 20 MB), and the body budget held 20 MB
 * for it (body-budget.ts). As body-parser did: a Content-Length over the limit is refused before
 * reading, and after a refusal the rest of the request is read and dropped before the answer, so
 * that the client, still sending, gets it.
 */
function readBody(
  req: GatewayRequest,
  limit: number,
  done: (problem: BodyProblem | null, bytes: Buffer) => void,
): void {
  // No body at all (neither a length nor chunks): nothing to read, whatever the encoding says.
  if (req.header('transfer-encoding') === undefined && req.header('content-length') === undefined)
    return done(null, Buffer.alloc(0));
  const encoding = (req.header('content-encoding') ?? 'identity').toLowerCase();
  const inflate = encoding === 'identity' ? null : INFLATE[encoding];
  if (inflate === undefined) return done('encoding', Buffer.alloc(0));
  const declared = Number(req.header('content-length') ?? 0);
  if (!inflate && declared > limit) return drain(req, () => done('too_large', Buffer.alloc(0)));
  const inflater = inflate ? inflate() : null;
  const stream: Readable = inflater ? req.pipe(inflater) : req;
  const body = new BodyBytes(limit);
  let finished = false;
  const finish = (problem: BodyProblem | null) => {
    if (finished) return;
    finished = true;
    stream.off('data', onData).off('end', onEnd).off('error', onError);
    req.off('close', onClose);
    if (inflater) {
      req.unpipe(inflater);
      inflater.on('error', () => undefined);
      inflater.destroy();
    }
    if (problem) return drain(req, () => done(problem, Buffer.alloc(0)));
    req.resume();
    body.bytes().then(
      (bytes) => done(null, bytes),
      () => done('unreadable', Buffer.alloc(0)),
    );
  };
  const onData = (chunk: Buffer) => {
    if (!body.push(chunk)) finish('too_large');
  };
  const onEnd = () => finish(null);
  const onError = () => finish('unreadable');
  // Aborted by the client: the body cannot be read.
  const onClose = () => {
    if (!req.complete) finish('unreadable');
  };
  stream.on('data', onData).on('end', onEnd).on('error', onError);
  req.on('close', onClose);
}

/** Reads the rest of a request without keeping it, then `then`. */
function drain(req: GatewayRequest, then: () => void): void {
  if (req.complete || req.destroyed) return then();
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    then();
  };
  req.once('end', once).once('close', once).once('error', once);
  req.resume();
}

/**
 * JSON bodies of POST endpoints: Content-Type application/json with no charset or UTF-8 (else 415),
 * Content-Encoding one of JSON_CONTENT_ENCODINGS (else 415), at most 20 MB once inflated (else 413),
 * valid JSON (else 400 INVALID_JSON), nested at most MAX_JSON_DEPTH levels (else 400 INVALID_REQUEST
 * naming the first value too deep in details.fields). Errors are written here, in the API's shape,
 * because they happen before Nest's routing and filters.
 *
 * `deferAbove`: a body of more bytes than this — the bytes actually read and inflated, not what a
 * header announced (issue 19: a chunked or gzipped 50,000-row body was parsed on the event loop) —
 * is not parsed here: `req.deferredJson` is set and a rules thread parses it (RulesPool).
 */
export function jsonBody(options: { deferAbove?: number } = {}) {
  return (req: GatewayRequest, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    const [type, ...parameters] = (req.header('content-type') ?? '').split(';');
    if (type!.trim().toLowerCase() !== 'application/json') return fail(req, res, 'UNSUPPORTED_MEDIA_TYPE');
    const charset = parameters
      .map((p) => p.trim().toLowerCase())
      .find((p) => p.startsWith('charset='))
      ?.slice('charset='.length)
      .replace(/^"|"$/g, '');
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
      return fail(req, res, 'UNSUPPORTED_MEDIA_TYPE');
    readBody(req, MAX_BODY_BYTES, (problem, bytes) => {
      if (problem === 'too_large') return fail(req, res, 'PAYLOAD_TOO_LARGE');
      if (problem === 'encoding') return fail(req, res, 'UNSUPPORTED_MEDIA_TYPE', undefined, true);
      // Aborted by the client, a broken chunked or compressed stream: the body cannot be read.
      if (problem === 'unreadable') return fail(req, res, 'INVALID_JSON');
      req.rawBody = bytes;
      req.body = undefined;
      if (options.deferAbove !== undefined && bytes.length > options.deferAbove) {
        req.deferredJson = true;
        return next();
      }
      try {
        // An empty body is an empty object (its fields are then reported missing), as before.
        req.body = bytes.length === 0 ? {} : parseJsonBody(bytes, req.lang ?? 'en');
      } catch {
        return fail(req, res, 'INVALID_JSON');
      }
      const deep = tooDeepPath(req.body);
      if (deep === null) return next();
      const fields = [
        { field: deep, message: `${REQUEST_FIELD_PROBLEMS.too_deep[req.lang ?? 'en']} ${MAX_JSON_DEPTH}` },
      ];
      return fail(req, res, 'INVALID_REQUEST', { fields, field_count: fields.length });
    });
  };
}

function fail(
  req: GatewayRequest,
  res: Response,
  code: RequestErrorCode,
  details?: { fields: unknown[]; field_count: number },
  encoding = false,
): void {
  const params = encoding
    ? { detail: 'content-encoding', expected: JSON_CONTENT_ENCODINGS.join(', ') }
    : { limit: MAX_BODY_BYTES, expected: 'application/json', count: details?.field_count };
  // The rest of the body is not read: close the connection rather than wait for it.
  const headers: Record<string, string> =
    code === 'PAYLOAD_TOO_LARGE' || encoding ? { Connection: 'close' } : {};
  // Through the one error writer, so the refusal reaches the access line and the refusals metric.
  sendApiError(req, res, new ApiError(code, params, details ?? {}, headers));
}

/** An array or object being walked, and the path segment that leads to it. */
interface Frame {
  readonly container: object;
  /** Keys of an object (Object.keys: the body's order, integer-like keys first); null for an array. */
  readonly keys: string[] | null;
  readonly length: number;
  readonly segment: string;
  next: number;
}

/**
 * The path (as details.fields writes it: `declarations[0].holders[1].nir`) of the first array or
 * object, in document order, nested deeper than `maxDepth` levels; null when there is none. A walk
 * on an explicit stack that never goes below `maxDepth + 1` levels: it cannot overflow, and a
 * 100,000-deep body costs no more than a 33-deep one. Only objects and arrays make a level.
 */
export function tooDeepPath(root: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  if (!isContainer(root)) return null;
  const stack: Frame[] = [];
  const enter = (container: object, segment: string): boolean => {
    if (stack.length === maxDepth) return false;
    const keys = Array.isArray(container) ? null : Object.keys(container);
    stack.push({
      container,
      keys,
      length: keys ? keys.length : (container as unknown[]).length,
      segment,
      next: 0,
    });
    return true;
  };
  if (!enter(root, '')) return pathOf(stack, '');
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next === top.length) {
      stack.pop();
      continue;
    }
    const i = top.next++;
    const key = top.keys ? top.keys[i]! : null;
    const value: unknown =
      key === null ? (top.container as unknown[])[i] : (top.container as Record<string, unknown>)[key];
    if (!isContainer(value)) continue;
    const segment = key === null ? `[${i}]` : keySegment(key);
    if (!enter(value, segment)) return pathOf(stack, segment);
  }
  return null;
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** `.name` for a plain key (the root's first has no dot), `["…"]` (JSON-quoted) for any other; long keys cut. */
function keySegment(key: string): string {
  const shown = key.length > KEY_CHARS ? `${key.slice(0, KEY_CHARS)}…` : key;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${shown}` : `[${JSON.stringify(shown)}]`;
}

/** The segments from the root to `last`, cut at PATH_CHARS (whole segments, then "…"). */
function pathOf(stack: readonly Frame[], last: string): string {
  let path = '';
  for (const segment of [...stack.map((f) => f.segment), last]) {
    const piece = path === '' && segment.startsWith('.') ? segment.slice(1) : segment;
    if (path.length + piece.length > PATH_CHARS) return `${path}…`;
    path += piece;
  }
  return path === '' ? '(body)' : path;
}
