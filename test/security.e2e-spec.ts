import { spawn } from 'node:child_process';
import request from 'supertest';
import { monthOf } from '@ppfile/db';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { startGateway, type Gateway } from './support/gateway';
import { assertBuilt, GATEWAY_MAIN } from './support/worker';
import { suiteLogs } from './support/logs';

/**
 * The security review's findings (issue "Hostile input and abuse"), replayed against a running
 * gateway: each must stay refused or bounded. Headers, operator throttling and docker-compose are
 * in test/security-headers.e2e-spec.ts.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ testRowsPerMonth: 200, maxInflightBytes: 30 * 1024 * 1024 });
}, 60_000);
afterAll(async () => {
  await gw?.close();
});

function body(holders: number, seed = 0): Json {
  const b = validBody('adf', 'employer', holders) as Json;
  b.declarations[0].holders.forEach((h: Json, i: number) => {
    const n = seed * 1000 + i;
    h.nir = `1${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`;
    h.unique_id = `S-${n}`;
  });
  return b;
}

it('#1 test keys produce at most TEST_ROWS_PER_MONTH rows a month, then 429 QUOTA_EXCEEDED (mode test); live units untouched', async () => {
  const org = await gw.organization('pro');
  for (let i = 0; i < 4; i++) {
    const ok = await request(gw.http).post('/v1/files/generate').set(bearer(org.test)).send(body(50, i));
    expect(ok.status).toBe(200);
    expect(ok.body.mode).toBe('test');
  }
  const over = await request(gw.http).post('/v1/files/generate').set(bearer(org.test)).send(body(1, 9));
  expect(over.status).toBe(429);
  expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
  expect(over.body.error.details).toEqual({ used: 200, limit: 200, requested: 1, mode: 'test' });
  // Free validation stays free and unlimited by the allowance; live keys are not affected.
  expect(
    (await request(gw.http).post('/v1/declarations/validate').set(bearer(org.test)).send(body(3))).status,
  ).toBe(200);
  expect((await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(body(2))).status).toBe(
    200,
  );
  await expect(gw.stores.ledger.month(org.id, monthOf(gw.clock.now()))).resolves.toEqual({
    month: monthOf(gw.clock.now()),
    used: 2,
    committed: 2,
    reserved: 0,
    testRows: 200,
  });
  // A failed test generation gives its rows back.
  const org2 = await gw.organization('pro');
  const invalid = body(50);
  invalid.declarations[0].holders[3].nir = 'nonsense';
  expect(
    (await request(gw.http).post('/v1/files/generate').set(bearer(org2.test)).send(invalid)).status,
  ).toBe(422);
  await expect(gw.stores.ledger.month(org2.id, monthOf(gw.clock.now()))).resolves.toMatchObject({
    testRows: 0,
  });
});

it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])(
  '#3 a field named %s is an unknown field (400) in a holder, a declaration, the training and the options',
  async (name) => {
    const org = await gw.organization('pro');
    const b = body(1);
    const places = [
      (x: Json) => x.declarations[0].holders[0],
      (x: Json) => x.declarations[0],
      (x: Json) => x.declarations[0].training,
      (x: Json) => (x.options ??= {}),
    ];
    for (const place of places) {
      const parsed = JSON.parse(JSON.stringify(b)) as Json;
      place(parsed).MARKER_FIELD = 1;
      // Renamed in the JSON text: JSON.parse on the server makes "__proto__" an own key, as a client's body would.
      const withField = JSON.stringify(parsed).replace('"MARKER_FIELD"', JSON.stringify(name));
      const res = await request(gw.http)
        .post('/v1/declarations/validate')
        .set(bearer(org.live))
        .set('Content-Type', 'application/json')
        .send(withField);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(JSON.stringify(res.body.error.details.fields)).toContain(name);
    }
  },
);

it('#8 concurrent large uploads are bounded by MAX_INFLIGHT_BYTES: 503 with Retry-After over it, nothing counted, then served again', async () => {
  const org = await gw.organization('business');
  const line = `${'X'.repeat(200)}\r\n`;
  const big = Buffer.from(`HEADER\r\n${line.repeat(Math.floor((19 * 1024 * 1024) / line.length))}`);
  const send = () =>
    request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .attach('file', big, 'big.csv')
      .then((r) => r);
  const answers = await Promise.all(Array.from({ length: 4 }, send));
  const refused = answers.filter((r) => r.status === 503);
  expect(refused.length).toBeGreaterThanOrEqual(2);
  for (const r of refused) {
    expect(r.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(r.headers['retry-after']).toBe('2');
  }
  // The ones admitted were analysed (too many lines for one request here), none was counted.
  for (const r of answers.filter((x) => x.status !== 503)) expect(r.status).toBe(413);
  expect((await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).used).toBe(0);
  const after = await send();
  expect(after.status).toBe(413);
}, 120_000);

describe('#7 large declaration bodies are validated off the event loop', () => {
  function large(): Json {
    const b = body(500, 7);
    b.declarations = Array.from({ length: 5 }, (_, d) => ({
      ...b.declarations[0],
      id: `LARGE-${d}`,
      holders: b.declarations[0].holders.map((h: Json, i: number) => ({ ...h, unique_id: `L-${d}-${i}` })),
    }));
    return b;
  }

  it('a body over 256 KiB is read as bytes and parsed with the rules (inline here): same answer, same refusals', async () => {
    const org = await gw.organization('business');
    const b = large();
    const text = JSON.stringify(b);
    expect(text.length).toBeGreaterThan(256 * 1024);
    const res = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(org.live))
      .set('Content-Type', 'application/json')
      .send(text);
    expect(res.status).toBe(200);
    expect(res.body.rows_total).toBe(2500);
    const broken = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(org.live))
      .set('Content-Type', 'application/json')
      .send(`${text.slice(0, -1)},`);
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('INVALID_JSON');
    const tooMany = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(org.test))
      .set('Content-Type', 'application/json')
      .send(text);
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.error.code).toBe('LINE_LIMIT_EXCEEDED');
  });

  it('the built gateway runs them in a rules thread, with the answer the inline path gives', async () => {
    assertBuilt('gateway', GATEWAY_MAIN);
    const org = await gw.organization('business');
    const text = JSON.stringify(large());
    const inline = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(org.live))
      .set('Content-Type', 'application/json')
      .send(text);
    const port = 3900 + Math.floor(Math.random() * 90);
    const child = spawn(process.execPath, [GATEWAY_MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: gw.config.databaseUrl,
        REDIS_URL: gw.config.redisUrl,
        S3_ENDPOINT: gw.config.s3.endpoint,
        S3_ACCESS_KEY: gw.config.s3.accessKey,
        S3_SECRET_KEY: gw.config.s3.secretKey,
        S3_BUCKET: gw.config.s3.bucket,
        PAYLOAD_ENCRYPTION_KEY: gw.config.payloadEncryptionKey.toString('base64'),
        QUEUE_PREFIX: gw.config.queue.prefix,
        RULES_THREADS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const keep = (d: Buffer) => {
      out += d.toString();
      suiteLogs.feed(d);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    try {
      const deadline = Date.now() + 30_000;
      while (!out.includes('gateway listening') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain('1 rules thread(s)');
      const threaded = await fetch(`http://127.0.0.1:${port}/v1/declarations/validate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.live}`, 'content-type': 'application/json' },
        body: text,
      });
      expect(threaded.status).toBe(200);
      expect(await threaded.json()).toEqual(inline.body);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 120_000);
});
