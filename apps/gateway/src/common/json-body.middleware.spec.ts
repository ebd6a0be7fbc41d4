import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import express, { type NextFunction, type Response } from 'express';
import request from 'supertest';
import { REQUEST_FIELD_PROBLEMS, requestErrorMessage } from '@ppfile/contract';
import { pickLang } from '@ppfile/rules';
import { jsonBody, MAX_JSON_DEPTH, tooDeepPath } from './json-body.middleware';
import type { GatewayRequest } from './request-context';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A tiny app: what requestIdMiddleware sets, the middleware under test, and a handler that echoes what it got. */
function app() {
  const a = express();
  a.use((req, _res: Response, next: NextFunction) => {
    const r = req as GatewayRequest;
    r.requestId = 'req_test';
    r.lang = pickLang(req.header('accept-language'));
    next();
  });
  a.post('/v1/files/generate', jsonBody() as express.RequestHandler, (req, res) => {
    res
      .status(200)
      .json({ reached: true, type: typeof req.body, bytes: (req as GatewayRequest).rawBody?.length });
  });
  return a;
}

const post = (text: string, lang?: string) => {
  const r = request(app()).post('/v1/files/generate').set('Content-Type', 'application/json');
  if (lang) r.set('Accept-Language', lang);
  return r.send(text);
};

/** `levels` arrays one within the other, as JSON text. */
const nestedArrays = (levels: number, inner = '') => '['.repeat(levels) + inner + ']'.repeat(levels);

const BODY = {
  type: 'adf',
  declarant: 'employer',
  declarations: [
    {
      id: 'SST-2026-09',
      reference: 'Session SST',
      transferable_skills: ['115650'],
      training: {
        name: 'SST',
        start_date: '2026-09-14',
        end_date: '2026-09-15',
        formacodes: ['42829'],
        nsf_codes: ['344r'],
      },
      holders: [
        { unique_id: 'E0', nir: '2550814168025', birth_name: 'DUPONT', validity_start: '2026-09-15' },
      ],
    },
  ],
  options: { store: false },
};

/** The body with `text` as the value of holders[0].constructor. */
function underConstructor(text: string): string {
  return JSON.stringify(BODY).replace('"unique_id"', `"constructor":${text},"unique_id"`);
}

function expectTooDeep(res: request.Response, field: string, lang: 'en' | 'fr' = 'en'): void {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    error: {
      code: 'INVALID_REQUEST',
      message: requestErrorMessage('INVALID_REQUEST', lang, { count: 1 }),
      details: {
        fields: [{ field, message: `${REQUEST_FIELD_PROBLEMS.too_deep[lang]} ${MAX_JSON_DEPTH}` }],
        field_count: 1,
      },
      request_id: 'req_test',
    },
  });
}

describe('jsonBody: nesting depth', () => {
  it('is bounded at 32 levels', () => {
    expect(MAX_JSON_DEPTH).toBe(32);
  });

  it('passes a normal declaration body', async () => {
    const res = await post(JSON.stringify(BODY));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      reached: true,
      type: 'object',
      bytes: Buffer.byteLength(JSON.stringify(BODY)),
    });
  });

  it('passes a top-level scalar (the route judges it) and a wide, shallow body', async () => {
    expect((await post('"text"')).body.reached).toBe(true);
    const wide = JSON.stringify({ a: Array.from({ length: 100_000 }, (_, i) => ({ i, v: [i] })) });
    expect((await post(wide)).status).toBe(200);
  });

  it('passes 32 levels, refuses 33', async () => {
    expect((await post(nestedArrays(32))).status).toBe(200);
    expect((await post(nestedArrays(32, '1,"x",null,true'))).status).toBe(200);
    expectTooDeep(await post(nestedArrays(33)), '[0]'.repeat(32));
    // Objects count like arrays.
    const objects = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
    expect((await post(objects(32))).status).toBe(200);
    expectTooDeep(await post(objects(33)), Array(32).fill('a').join('.'));
  });

  it('under a field of a holder: 32 levels in all pass, 33 fail', async () => {
    // body 1, declarations 2, [0] 3, holders 4, [0] 5, constructor 6: 27 more levels reach 33.
    expect((await post(underConstructor(nestedArrays(27)))).status).toBe(200);
    expectTooDeep(
      await post(underConstructor(nestedArrays(28))),
      `declarations[0].holders[0].constructor${'[0]'.repeat(27)}`,
    );
  });

  it('refuses a 100,000-deep body with 400 INVALID_REQUEST naming the path (the review repro)', async () => {
    const res = await post(underConstructor(nestedArrays(100_000)));
    expectTooDeep(res, `declarations[0].holders[0].constructor${'[0]'.repeat(27)}`);
    expectTooDeep(await post(nestedArrays(100_000)), '[0]'.repeat(32));
  });

  it('answers in French with Accept-Language: fr', async () => {
    expectTooDeep(await post(nestedArrays(40), 'fr-FR'), '[0]'.repeat(32), 'fr');
  });
});

describe('jsonBody: decided by the bytes read (issue 19: chunked and gzipped bodies were parsed on the event loop)', () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    const a = express();
    a.use((req, _res: Response, next: NextFunction) => {
      (req as GatewayRequest).requestId = 'req_test';
      (req as GatewayRequest).lang = 'en';
      next();
    });
    a.post('/v', jsonBody({ deferAbove: 1000 }) as express.RequestHandler, (req, res) => {
      const r = req as GatewayRequest;
      res.status(200).json({ deferred: r.deferredJson === true, bytes: r.rawBody?.length, parsed: req.body });
    });
    server = a.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  /** Sends exactly these bytes and headers (no client serialization); `chunked`: no Content-Length. */
  function send(body: Buffer | string, headers: Record<string, string>, chunked = false) {
    return new Promise<{ status: number; body: Json }>((resolve, reject) => {
      const bytes = Buffer.from(body);
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/v',
          headers: chunked ? headers : { ...headers, 'content-length': String(bytes.length) },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      if (chunked) {
        req.write(bytes.subarray(0, 10));
        req.write(bytes.subarray(10));
      } else req.write(bytes);
      req.end();
    });
  }
  const JSON_TYPE = { 'content-type': 'application/json' };
  const big = JSON.stringify({ pad: 'x'.repeat(5000) });

  it('defers a large body sent with Content-Length, chunked (no length), or gzipped to a few bytes', async () => {
    expect((await send(big, JSON_TYPE)).body).toEqual({ deferred: true, bytes: big.length });
    expect((await send(big, JSON_TYPE, true)).body).toEqual({ deferred: true, bytes: big.length });
    const zipped = gzipSync(big);
    expect(zipped.length).toBeLessThan(1000);
    const gz = await send(zipped, { ...JSON_TYPE, 'content-encoding': 'gzip' });
    expect(gz.body).toEqual({ deferred: true, bytes: big.length });
    const gzChunked = await send(zipped, { ...JSON_TYPE, 'content-encoding': 'gzip' }, true);
    expect(gzChunked.body).toEqual({ deferred: true, bytes: big.length });
  });

  it('parses a small body here, gzipped or not; strips a leading byte-order mark; refuses other charsets (415)', async () => {
    const small = await send(gzipSync('{"a":1}'), { ...JSON_TYPE, 'content-encoding': 'gzip' });
    expect(small.body).toEqual({ deferred: false, bytes: 7, parsed: { a: 1 } });
    const bom = await send('\ufeff{"a":2}', { 'content-type': 'application/json; charset=UTF-8' });
    expect(bom.body.parsed).toEqual({ a: 2 });
    const latin = await send('{"a":3}', { 'content-type': 'application/json; charset=latin1' });
    expect(latin.status).toBe(415);
    expect(latin.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('turns bytes that are not UTF-8 into U+FFFD (which the rules refuse in any value), never into another letter', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"n":"DU'),
      Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xe9]),
      Buffer.from('PONT"}'),
    ]);
    const res = await send(bytes, JSON_TYPE);
    expect(res.body.parsed.n).toMatch(/^DU\ufffd+PONT$/);
  });
});

describe('tooDeepPath', () => {
  const deepArray = (levels: number): unknown => {
    let v: unknown = [];
    for (let i = 1; i < levels; i++) v = [v];
    return v;
  };

  it('null for scalars and for values within the limit', () => {
    for (const v of [
      null,
      1,
      'x',
      true,
      undefined,
      [],
      {},
      deepArray(32),
      JSON.parse(JSON.stringify(BODY)),
    ]) {
      expect(tooDeepPath(v)).toBeNull();
    }
  });

  it('names the first too-deep value in document order', () => {
    // body 1, first 2, first[1] 3, ok 4: 29 arrays reach level 32.
    const body = { first: [1, { ok: deepArray(29) }, { deep: deepArray(40) }], second: deepArray(100) };
    expect(tooDeepPath(body)).toBe(`first[2].deep${'[0]'.repeat(29)}`);
    expect(tooDeepPath({ a: deepArray(31), b: { c: deepArray(40) } })).toBe(`b.c${'[0]'.repeat(30)}`);
  });

  it('quotes keys that are not plain names and cuts long ones', () => {
    expect(tooDeepPath({ 'a b': deepArray(3) }, 2)).toBe('["a b"][0]');
    expect(tooDeepPath({ '': [[1]] }, 2)).toBe('[""][0]');
    expect(tooDeepPath({ __proto__x: { 'x.y': [[]] } }, 3)).toBe('__proto__x["x.y"][0]');
    const long = 'k'.repeat(1000);
    expect(tooDeepPath({ [long]: [[]] }, 2)).toBe(`${'k'.repeat(40)}…[0]`);
  });

  it('keeps a path of long keys within 200 characters, cut on a segment', () => {
    let v: unknown = {};
    for (let i = 0; i < 50; i++) v = { ['key_'.repeat(20) + i]: v };
    const path = tooDeepPath(v)!;
    expect(path.length).toBeLessThanOrEqual(201);
    expect(path.endsWith('…')).toBe(true);
    expect(path.startsWith('key_key_')).toBe(true);
  });

  it('walks 100,000 levels without recursion, and a cyclic value without looping', () => {
    expect(tooDeepPath(deepArray(100_000))).toBe('[0]'.repeat(32));
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(tooDeepPath(a)).toBe(Array(32).fill('self').join('.'));
  });

  it('uses the limit it is given', () => {
    expect(tooDeepPath([[1]], 1)).toBe('[0]');
    expect(tooDeepPath([[1]], 2)).toBeNull();
    expect(tooDeepPath([], 0)).toBe('(body)');
  });
});
