import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { startGateway, type Gateway } from '../support/gateway';
import { GatewayProcess } from '../support/gateway-process';

/**
 * A bounded fuzz of the HTTP layer (issue 19): a few hundred raw requests with malformed paths,
 * headers, encodings and bodies — sent whole, cut short, or trickled then dropped — against the
 * built gateway as a process of its own. Whatever they get, the process must answer and live, its
 * body budget must come back to empty, and a normal POST must still get 200. Seeded: a failure
 * prints its seed and the case, and replays.
 */
const CASES = 300;
const SEED = Number(process.env.PPFILE_FUZZ_SEED ?? 20261125);

let gw: Gateway;
let proc: GatewayProcess;
let key = '';

beforeAll(async () => {
  gw = await startGateway();
  proc = new GatewayProcess(gw, {
    BODY_TIMEOUT_SECONDS: '5',
    BODY_MIN_BYTES_PER_SECOND: '1024',
    RATE_LIMIT_SCALE: '1000',
  });
  await proc.start();
  key = (await gw.organization('business')).live;
}, 90_000);

afterAll(async () => {
  await proc?.stop();
  await gw?.close();
}, 30_000);

const PATHS = [
  '/v1/files/validate',
  '/v1/declarations/validate',
  '/v1/files/generate',
  '/v1/files/file_0123456789abcdef/download',
  '/v1/files/',
  '/v1/spec/2026-02/references/rome',
  '/dashboard/invite/',
  '/dashboard/sign-in',
  '/admin/queues/',
  '/docs/',
  '/metrics',
  '/health/ready',
  '/',
];
const SEGMENTS = [
  '%E0%A4%A',
  '%',
  '%Z',
  '%zz',
  '%00',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '..',
  '%2e%2e%2f',
  '\u00e9',
  '%E2%80%AE',
  'a'.repeat(3000),
  '?q=%E0%A4%A',
  '#x',
  ';jsessionid=1',
  '*',
  '',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'TRACE', 'BREW', 'post'];

const header = (name: string, values: string[]) =>
  fc.option(fc.constantFrom(...values.map((v) => `${name}: ${v}`)), { nil: null });

const requestArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.tuple(fc.constantFrom(...PATHS), fc.constantFrom(...SEGMENTS)).map(([p, s]) => p + s),
  auth: fc.constantFrom('none', 'valid', 'garbage', 'basic'),
  headers: fc.tuple(
    header('Content-Type', [
      'application/json',
      'application/json; charset=utf-16',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'multipart/form-data; boundary=',
      'text/plain',
      '\u00ff\u00fe',
    ]),
    header('Content-Encoding', ['gzip', 'br', 'deflate', 'gzip, gzip', 'x-bogus', 'identity']),
    header('Accept-Language', ['fr', 'de;q=x', '*', 'fr-FR,fr;q=0.9,en;q=0.8,'.repeat(40)]),
    header('X-Request-Id', ['req_\u00e9', 'ok-id', '%00', 'x'.repeat(200)]),
    header('Cookie', ['__Host-ppfile_session=%E0%A4%A', 'a=b; a=c', '=;=;=']),
    header('Prefer', ['respond-async', 'respond-async, wait=-1']),
    header('Idempotency-Key', ['\u00e9', 'k'.repeat(300), 'ok-1']),
  ),
  framing: fc.constantFrom('length', 'wrong-length', 'chunked', 'bad-chunked', 'none', 'both', 'huge-length'),
  body: fc.constantFrom('json', 'gzip-json', 'garbage', 'gzip-garbage', 'multipart', 'empty', 'broken-utf8'),
  fate: fc.constantFrom('whole', 'whole', 'whole', 'abort-early', 'abort-late', 'trickle'),
});
type FuzzRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function bodyOf(kind: FuzzRequest['body']): Buffer {
  const json = JSON.stringify(validBody('adf', 'training_organization', 2));
  switch (kind) {
    case 'json':
      return Buffer.from(json);
    case 'gzip-json':
      return gzipSync(json);
    case 'garbage':
      return Buffer.from([0x00, 0xff, 0x7b, 0x22, 0x0d, 0x0a, 0x30, 0x0d, 0x0a, 0xc0, 0xaf]);
    case 'gzip-garbage':
      return gzipSync(json).subarray(0, 20);
    case 'multipart':
      return Buffer.from(
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nA|B\r\n--x--\r\n',
      );
    case 'empty':
      return Buffer.alloc(0);
    case 'broken-utf8':
      return Buffer.concat([Buffer.from('{"type":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    default:
      return Buffer.alloc(0);
  }
}

/** The raw request's bytes: request line, headers and framed body. */
function bytesOf(r: FuzzRequest): Buffer {
  const body = bodyOf(r.body);
  const lines = [`${r.method} ${r.path} HTTP/1.1`, 'Host: 127.0.0.1'];
  if (r.auth === 'valid') lines.push(`Authorization: Bearer ${key}`);
  if (r.auth === 'garbage') lines.push('Authorization: Bearer pp_live_\u00e9\u00e9');
  if (r.auth === 'basic') lines.push('Authorization: Basic %%%');
  for (const h of r.headers) if (h !== null) lines.push(h);
  let framed = body;
  switch (r.framing) {
    case 'length':
      lines.push(`Content-Length: ${body.length}`);
      break;
    case 'wrong-length':
      lines.push(`Content-Length: ${body.length + 7}`);
      break;
    case 'huge-length':
      lines.push('Content-Length: 99999999999');
      break;
    case 'chunked':
      lines.push('Transfer-Encoding: chunked');
      framed = Buffer.concat([
        Buffer.from(`${body.length.toString(16)}\r\n`),
        body,
        Buffer.from('\r\n0\r\n\r\n'),
      ]);
      break;
    case 'bad-chunked':
      lines.push('Transfer-Encoding: chunked');
      framed = Buffer.concat([Buffer.from('zz\r\n'), body]);
      break;
    case 'both':
      lines.push(`Content-Length: ${body.length}`, 'Transfer-Encoding: chunked');
      break;
    case 'none':
      break;
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), framed]);
}

/** Sends one case on its own connection; resolves when the server answered, closed, or the case dropped it. */
function send(r: FuzzRequest): Promise<void> {
  const bytes = bytesOf(r);
  return new Promise<void>((resolve) => {
    const s = connect(proc.port, '127.0.0.1');
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      resolve();
    };
    const timer = setTimeout(done, 4000);
    s.on('error', done);
    s.on('close', done);
    s.on('data', () => {
      if (r.fate === 'whole') setTimeout(done, 50);
    });
    s.once('connect', () => {
      const headEnd = bytes.indexOf('\r\n\r\n') + 4;
      if (r.fate === 'whole') s.write(bytes);
      else if (r.fate === 'abort-early') {
        s.write(bytes.subarray(0, headEnd));
        setImmediate(() => s.resetAndDestroy());
      } else if (r.fate === 'abort-late') {
        s.write(bytes.subarray(0, Math.max(headEnd, bytes.length - 3)));
        setTimeout(() => s.resetAndDestroy(), 20);
      } else {
        s.write(bytes.subarray(0, headEnd));
        let i = headEnd;
        const drip = setInterval(() => {
          if (s.destroyed || i >= bytes.length) return clearInterval(drip);
          s.write(bytes.subarray(i, ++i));
        }, 300);
        setTimeout(() => (clearInterval(drip), s.destroy()), 1500);
      }
    });
  });
}

it(`survives ${CASES} malformed, cut and trickled requests, its body budget empties, and a normal POST gets 200`, async () => {
  const cases = fc.sample(requestArb, { numRuns: CASES, seed: SEED });
  for (let i = 0; i < cases.length; i += 15) {
    await Promise.all(cases.slice(i, i + 15).map(send));
    if (!proc.alive)
      throw new Error(
        `the gateway died (seed ${SEED}) at one of:\n${JSON.stringify(cases.slice(i, i + 15), null, 1)}\n${proc.log.slice(-3000)}`,
      );
  }
  expect(proc.alive).toBe(true);
  expect((await fetch(`${proc.url}/health/live`)).status).toBe(200);
  const deadline = Date.now() + 15_000;
  while ((await proc.metric('ppfile_inflight_body_bytes')) !== 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 250));
  expect(await proc.metric('ppfile_inflight_body_bytes')).toBe(0);
  const res = await fetch(`${proc.url}/v1/declarations/validate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(validBody('adf', 'training_organization', 1)),
  });
  expect(res.status).toBe(200);
  expect(proc.log).not.toMatch(/uncaught|URIError|unhandled/i);
}, 180_000);
