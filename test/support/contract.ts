import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import * as path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Contract tests (issue: the OpenAPI document is the contract): every answer an in-process gateway
 * gives during an e2e test file is recorded, then checked against openapi.json after the file
 * (suite-audit.setup.ts): the status is one the operation documents, the required headers are
 * there and well-formed, no header is there that the response does not document (beyond
 * UNDOCUMENTED_HEADERS_ALLOWED), the content type is a documented one and the body matches its schema.
 * A failure names the operation and the difference.
 */
export interface Exchange {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Buffer | null;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = path.resolve(__dirname, '../..');

/**
 * The response headers an answer may carry without the document listing them: every other header
 * of a recorded answer (errors, 304s and 2xx alike) must be documented for that operation and
 * status, so that nothing (an automatic ETag on an error, X-Powered-By) slips in unseen.
 * - HTTP transport, the same for any answer: content-type (checked against the documented media
 *   types below), content-length, date, connection, keep-alive, transfer-encoding.
 * - The security headers every gateway answer carries (apps/gateway/src/common/security-headers.ts),
 *   which openapi.json does not list per response (docs/api.md names no-store): the CSP, nosniff, no framing, no
 *   Referer, the cross-origin policies, HSTS over TLS, and Cache-Control: no-store under /v1.
 */
const UNDOCUMENTED_HEADERS_ALLOWED = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'strict-transport-security',
  'cache-control',
]);
// Large enough for a 50,000-row `store: false` generation (its CSV travels in the JSON body).
const MAX_RECORDED_BODY = 48 * 1024 * 1024;

/** The answers of this test file's gateways (jest gives each file its own module registry). */
export const suiteExchanges: Exchange[] = [];

/** Records every answer `server` gives from now on. */
export function recordExchanges(server: Server, into: Exchange[] = suiteExchanges): void {
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > MAX_RECORDED_BODY)
        return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      size += buffer.length;
      chunks.push(buffer);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    }) as typeof res.end;
    res.once('finish', () => {
      into.push({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        status: res.statusCode,
        headers: res.getHeaders(),
        body: size > MAX_RECORDED_BODY ? null : Buffer.concat(chunks),
      });
    });
  });
}

/** The contract: openapi.json at the repository root, and its schemas compiled once. */
export class Contract {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: { template: string; pattern: RegExp; literal: number }[];

  constructor(
    readonly document: Json = JSON.parse(readFileSync(path.join(ROOT, 'openapi.json'), 'utf8')) as Json,
  ) {
    // strict: false — OpenAPI 3.0 schemas carry `example`, `nullable` (which Ajv knows) and `format: binary`.
    this.ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema({ $id: 'openapi', components: document.components }, undefined, undefined, false);
    this.routes = Object.keys(document.paths as Json).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
      ),
      literal: template.replace(/\{[^}]+\}/g, '').length,
    }));
  }

  /** What is wrong with one answer; [] when it matches (or is outside the contract: /docs, /admin, /metrics). */
  check(exchange: Exchange): string[] {
    const urlPath = exchange.url.split('?')[0]!;
    const route = this.routes.filter((r) => r.pattern.test(urlPath)).sort((a, b) => b.literal - a.literal)[0];
    if (!route) return [];
    const operation = (this.document.paths as Json)[route.template][exchange.method.toLowerCase()] as
      Json | undefined;
    if (!operation) return [];
    const where = `${operation.operationId} (${exchange.method} ${route.template}) answered ${exchange.status}`;
    const response = this.resolve(
      operation.responses[String(exchange.status)] ?? operation.responses.default,
    ) as Json | undefined;
    if (!response)
      return [`${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`];
    const problems: string[] = [];
    const documented = new Set(Object.keys((response.headers ?? {}) as Json).map((n) => n.toLowerCase()));
    for (const name of Object.keys(exchange.headers)
      .filter((n) => exchange.headers[n] !== undefined)
      .map((n) => n.toLowerCase())
      .sort())
      if (!documented.has(name) && !UNDOCUMENTED_HEADERS_ALLOWED.has(name))
        problems.push(`${where}: header ${name} not documented for this response`);
    for (const [name, ref] of Object.entries((response.headers ?? {}) as Json)) {
      const h = this.resolve(ref) as Json;
      const value = exchange.headers[name.toLowerCase()];
      if (value === undefined) {
        if (h.required) problems.push(`${where}: required header ${name} missing`);
        continue;
      }
      const text = Array.isArray(value) ? value.join(', ') : String(value);
      const schema = h.schema as Json;
      const typed = schema.type === 'integer' ? (/^-?\d+$/.test(text) ? Number(text) : text) : text;
      const valid = this.validator(`header:${JSON.stringify(schema)}`, schema);
      if (!valid(typed))
        problems.push(`${where}: header ${name} "${text}" ${this.ajv.errorsText(valid.errors)}`);
    }
    const content = (response.content ?? {}) as Json;
    const contentType = String(exchange.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const media = Object.keys(content);
    if (media.length === 0) return problems;
    if (!media.includes(contentType))
      return [...problems, `${where}: content type "${contentType}", documented: ${media.join(', ')}`];
    if (contentType !== 'application/json' || exchange.body === null) return problems;
    let body: unknown;
    try {
      body = JSON.parse(exchange.body.toString('utf8'));
    } catch {
      return [...problems, `${where}: body is not JSON`];
    }
    const schema = content[contentType].schema as Json;
    const validate = this.validator(JSON.stringify(schema), this.absolute(schema));
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
      problems.push(`${where}: body does not match ${schema.$ref ?? 'its schema'}: ${errors.join('; ')}`);
    }
    return problems;
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let v = this.compiled.get(key);
    if (!v) this.compiled.set(key, (v = this.ajv.compile(schema)));
    return v;
  }

  /** A local `$ref` of the document, followed. */
  private resolve(node: unknown): unknown {
    let current = node as Json | undefined;
    while (current && typeof current.$ref === 'string') {
      current = current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<Json | undefined>(
          (at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')],
          this.document,
        );
    }
    return current;
  }

  /** A schema whose local `$ref`s point into the document Ajv knows as `openapi`. */
  private absolute(schema: Json): Json {
    return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"openapi#/')) as Json;
  }
}

/** Every contract problem of a list of answers (the same problem once, with how often it happened). */
export function contractProblems(exchanges: Exchange[], contract = new Contract()): string[] {
  const seen = new Map<string, number>();
  for (const exchange of exchanges)
    for (const p of contract.check(exchange)) seen.set(p, (seen.get(p) ?? 0) + 1);
  return [...seen].map(([p, n]) => (n > 1 ? `${p} (×${n})` : p));
}
