import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { startGateway, type Gateway } from '../support/gateway';
import { GatewayProcess } from '../support/gateway-process';

/**
 * Issue 19 (second hostile review), findings 1–5 and 10 (multipart), replayed against the built
 * gateway running as a process of its own: what a client does with a connection (aborts, trickles,
 * malformed chunks, compression, broken paths) must never end the process, leak the memory budget
 * for bodies, or let one organization hold it against the others.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const MiB = 1024 * 1024;
let gw: Gateway;
let proc: GatewayProcess;

beforeAll(async () => {
  gw = await startGateway();
  // A short deadline, so that trickled bodies are timed out within the test's patience.
  proc = new GatewayProcess(gw, { BODY_TIMEOUT_SECONDS: '5', BODY_MIN_BYTES_PER_SECOND: '1024' });
  await proc.start();
}, 90_000);

afterAll(async () => {
  await proc?.stop();
  await gw?.close();
}, 30_000);

afterEach(() => {
  expect(proc.alive).toBe(true);
});

/** A raw connection sending exactly `head` (request line and headers), for what fetch refuses to send. */
function raw(head: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(proc.port, '127.0.0.1', () => {
      s.write(head);
      resolve(s);
    });
    s.on('error', () => undefined);
    s.once('error', reject);
  });
}

/** Everything the server sends on `s` until it closes the connection (or `ms` pass). */
function answer(s: Socket, ms = 20_000): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve(text), ms);
    s.on('data', (d) => (text += d.toString('latin1')));
    s.once('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
}

const head = (key: string, path: string, headers: Record<string, string | number>) =>
  [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Authorization: Bearer ${key}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');

async function heldBytes(): Promise<number> {
  return (await proc.metric('ppfile_inflight_body_bytes'))!;
}

/** Waits until the gateway holds no body (the sweep runs every second), or fails after `ms`. */
async function budgetEmpties(ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while ((await heldBytes()) !== 0) {
    if (Date.now() > deadline) throw new Error(`the body budget still holds ${await heldBytes()} bytes`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function validate(key: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${proc.url}/v1/declarations/validate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

it('#1 a path with broken percent-encoding is 400 INVALID_REQUEST naming the path, with or without a key; the process lives', async () => {
  const org = await gw.organization('pro');
  for (const path of [
    '/v1/files/%E0%A4%A/download',
    '/dashboard/invite/%E0%A4%A',
    '/v1/files/%E0%A4%A',
    '/v1/%',
    '/%C0%AF',
    '/docs/%FF',
    '/admin/queues/%E0',
    '/metrics/%',
    '/health/%zz',
  ]) {
    for (const headers of [{}, { authorization: `Bearer ${org.live}` }] as Record<string, string>[]) {
      const res = await fetch(`${proc.url}${path}`, { headers });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      const body = (await res.json()) as Json;
      expect(body.error.code).toBe('INVALID_REQUEST');
      expect(body.error.details.fields).toEqual([{ field: '(path)', message: expect.any(String) }]);
      expect(body.error.request_id).toMatch(/^req_[0-9a-f]{32}$/);
      expect(res.headers.get('x-request-id')).toBe(body.error.request_id);
    }
  }
  await new Promise((r) => setTimeout(r, 200));
  expect(proc.log).not.toContain('URIError');
  expect((await fetch(`${proc.url}/health/live`)).status).toBe(200);
});

it('#2 uploads whose client resets after the headers (during the key check) never keep the budget; another organization then gets 200', async () => {
  const org = await gw.organization('pro');
  for (let round = 0; round < 3; round++) {
    const sockets = await Promise.all(
      Array.from({ length: 10 }, () =>
        raw(
          head(org.live, '/v1/files/validate', {
            'Content-Type': 'multipart/form-data; boundary=x',
            'Content-Length': 20 * MiB,
          }),
        ),
      ),
    );
    // Reset at once and a little later: before, during and after the key check's database call.
    await Promise.all(
      sockets.map((s, i) => new Promise<void>((r) => setTimeout(() => (s.resetAndDestroy(), r()), i % 5))),
    );
  }
  await budgetEmpties();
  const other = await gw.organization('free');
  expect((await validate(other.test, validBody('adf', 'employer', 1))).status).toBe(200);
});

it('#2 malformed chunked bodies are refused and release what they held', async () => {
  const org = await gw.organization('pro');
  const replies = [];
  for (const tail of ['zz\r\nabc\r\n', '5\r\n{"a":\r\nXYZ', '4\r\n{"a"\r\n0\r\n\r\n', '-1\r\n\r\n']) {
    const s = await raw(
      head(org.live, '/v1/declarations/validate', {
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      }),
    );
    s.write(tail);
    replies.push(answer(s, 3000).then((text) => (s.destroy(), text)));
  }
  for (const text of await Promise.all(replies)) expect(text).toMatch(/^HTTP\/1\.1 400 /);
  await budgetEmpties();
});

it('#5 trickled bodies are answered 408 REQUEST_TIMEOUT and closed; meanwhile one organization cannot take the whole budget', async () => {
  const free = await gw.organization('free');
  const other = await gw.organization('starter');
  const lengths = [20, 20, 20, 20, 20, 20, 8].map((n) => n * MiB);
  const sockets = await Promise.all(
    lengths.map((length) =>
      raw(
        head(free.test, '/v1/declarations/validate', {
          'Content-Type': 'application/json',
          'Content-Length': length,
        }),
      ),
    ),
  );
  const answers = sockets.map((s) => answer(s));
  const trickle = setInterval(() => {
    for (const s of sockets) if (!s.destroyed) s.write(' ');
  }, 1000);
  try {
    // While they trickle: the free organization holds at most half of MAX_INFLIGHT_BYTES (128 MiB)…
    await new Promise((r) => setTimeout(r, 500));
    expect(await heldBytes()).toBeLessThanOrEqual(64 * MiB);
    expect(await heldBytes()).toBeGreaterThan(0);
    // …and another organization's POST is served at once.
    const served = await validate(other.test, validBody('adf', 'employer', 1));
    expect(served.status).toBe(200);
    const texts = await Promise.all(answers);
    const statuses = texts.map((t) => Number(/^HTTP\/1\.1 (\d{3})/.exec(t)?.[1]));
    // Those over the organization's share were refused at once (503, Retry-After); the others timed out.
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 408).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 503 || s === 408)).toBe(true);
    const timedOut = texts.find((t) => t.startsWith('HTTP/1.1 408'))!;
    expect(timedOut).toMatch(/\r\nconnection: close\r\n/i);
    expect(timedOut).toContain('"code":"REQUEST_TIMEOUT"');
    const busy = texts.find((t) => t.startsWith('HTTP/1.1 503'))!;
    expect(busy).toMatch(/\r\nretry-after: \d+\r\n/i);
  } finally {
    clearInterval(trickle);
    for (const s of sockets) s.destroy();
  }
  await budgetEmpties();
  expect((await proc.metric('ppfile_refusals_total{code="REQUEST_TIMEOUT"}'))!).toBeGreaterThan(0);
}, 60_000);

it('#3 a compressed body holds its inflated maximum: 30 concurrent gzip bodies of 19 MiB are capped like plain ones', async () => {
  const org = await gw.organization('business');
  // 19 MiB of JSON (white space inside an object), about 19 KB once gzipped.
  const inflated = Buffer.concat([
    Buffer.from('{"type":"adf"'),
    Buffer.alloc(19 * MiB, ' '),
    Buffer.from('}'),
  ]);
  const gz = gzipSync(inflated, { level: 9 });
  expect(gz.length).toBeLessThan(100_000);
  const results = await Promise.all(
    Array.from({ length: 30 }, () => validate(org.live, gz, { 'content-encoding': 'gzip' })),
  );
  const statuses = results.map((r) => r.status);
  // 128 MiB hold 6 bodies of 20 MiB at once (and one organization 3): the rest wait for Retry-After.
  expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(20);
  for (const r of results.filter((x) => x.status === 503)) expect(r.headers.get('retry-after')).toBe('2');
  // The admitted ones were read whole (inflated) and answered: the body lacks its fields.
  expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(0);
  await budgetEmpties();
}, 60_000);

it('#3 a gzip bomb stops at 20 MB inflated (413), and unknown encodings are 415 naming the ones taken', async () => {
  const org = await gw.organization('pro');
  const bomb = gzipSync(
    Buffer.concat([Buffer.from('{"x":"'), Buffer.alloc(40 * MiB, 'a'), Buffer.from('"}')]),
  );
  const big = await validate(org.live, bomb, { 'content-encoding': 'gzip' });
  expect(big.status).toBe(413);
  expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  const odd = await validate(org.live, '{}', { 'content-encoding': 'compress' });
  expect(odd.status).toBe(415);
  expect(odd.body.error.message).toContain('gzip, deflate, br');
  // A gzipped body that is valid is validated as the plain one is.
  const body = validBody('adf', 'employer', 2);
  const plain = await validate(org.live, body);
  const zipped = await validate(org.live, gzipSync(JSON.stringify(body)), { 'content-encoding': 'gzip' });
  expect(plain.status).toBe(200);
  expect(zipped.body).toEqual(plain.body);
  // A broken gzip stream is unreadable: 400 INVALID_JSON.
  const broken = await validate(org.live, gzipSync('{"a":1}').subarray(0, 12), {
    'content-encoding': 'gzip',
  });
  expect(broken.status).toBe(400);
  expect(broken.body.error.code).toBe('INVALID_JSON');
  await budgetEmpties();
});

it('#10 multipart refusals name the part; a compressed form is 415', async () => {
  const org = await gw.organization('pro');
  const post = (body: string | FormData, headers: Record<string, string> = {}) =>
    fetch(`${proc.url}/v1/files/validate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.live}`, ...headers },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
  const cut = await post('--x\r\nContent-Disposition: form-data; name="type"\r\n\r\nadf', {
    'content-type': 'multipart/form-data; boundary=x',
  });
  expect(cut.status).toBe(400);
  expect(cut.body.error.details).toEqual({
    fields: [{ field: '(body)', message: expect.stringContaining('multipart/form-data') }],
    field_count: 1,
  });
  const twoFiles = new FormData();
  twoFiles.append('file', new Blob(['a']), 'a.csv');
  twoFiles.append('file', new Blob(['b']), 'b.csv');
  const two = await post(twoFiles);
  expect(two.status).toBe(400);
  expect(two.body.error.details.fields).toEqual([{ field: 'file', message: expect.any(String) }]);
  const long = new FormData();
  long.append('type', 'a'.repeat(20_000));
  long.append('file', new Blob(['x']), 'x.csv');
  const tooLong = await post(long);
  expect(tooLong.status).toBe(400);
  expect(tooLong.body.error.details.fields).toEqual([{ field: 'type', message: expect.any(String) }]);
  const form = '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\nadf\r\n--x--\r\n';
  const zipped = await fetch(`${proc.url}/v1/files/validate`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${org.live}`,
      'content-type': 'multipart/form-data; boundary=x',
      'content-encoding': 'gzip',
    },
    body: gzipSync(form),
  });
  expect(zipped.status).toBe(415);
  await budgetEmpties();
});

it('#6 broken text in a JSON body never reaches a file: raw bytes that are not UTF-8 and a lone surrogate are 422 naming the field', async () => {
  const org = await gw.organization('pro');
  const text = JSON.stringify(validBody('adf', 'employer', 1));
  const name = (validBody('adf', 'employer', 1) as Json).declarations[0].holders[0].birth_name as string;
  const at = text.indexOf(`"${name}"`) + 1;
  const generate = (body: Buffer) =>
    fetch(`${proc.url}/v1/files/generate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.live}`, 'content-type': 'application/json' },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Json }));
  for (const bytes of [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe9], Buffer.from('\\ud800')]) {
    const body = Buffer.concat([
      Buffer.from(text.slice(0, at + 2)),
      Buffer.from(bytes),
      Buffer.from(text.slice(at + 2)),
    ]);
    const res = await generate(body);
    expect(res.status).toBe(422);
    const errors = res.body.error.details.errors as Json[];
    expect(errors.map((e) => [e.code, e.field])).toEqual([
      ['INVALID_CHARACTER', 'declarations[0].holders[0].birth_name'],
    ]);
    expect(errors[0]!.message).not.toContain(name.slice(0, 2));
  }
  expect(await gw.prisma.fileRecord.count({ where: { organizationId: org.id } })).toBe(0);
});
