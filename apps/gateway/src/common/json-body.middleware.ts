import { raw, type NextFunction, type Response } from 'express';
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

/**
 * The body's bytes, inflated when it is compressed. The 20 MB limit counts the inflated bytes (a
 * 20 KB gzip bomb stops at 20 MB), and the body budget held 20 MB for it (body-budget.ts).
 */
const readBytes = raw({ limit: MAX_BODY_BYTES, type: () => true, inflate: true });

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
    readBytes(req, res, (err?: unknown) => {
      if (err) {
        const e = err as { type?: string; status?: number };
        if (e.type === 'entity.too.large' || e.status === 413) return fail(req, res, 'PAYLOAD_TOO_LARGE');
        if (e.type === 'encoding.unsupported')
          return fail(req, res, 'UNSUPPORTED_MEDIA_TYPE', undefined, true);
        // Aborted by the client, a broken chunked or compressed stream: the body cannot be read.
        return fail(req, res, 'INVALID_JSON');
      }
      const bytes: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
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
