import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { parse as parseYaml } from 'yaml';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { startGateway, type Gateway } from './support/gateway';

/**
 * Issue "Hostile input and abuse", the browser-facing part: security headers on every answer of
 * the gateway, Cache-Control: no-store on the answers that carry personal data, and docker-compose.yml
 * publishing nothing but the gateway (the operators' sign-in throttle: operator-throttle.e2e-spec.ts).
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const OPERATOR = ['operator', 'operator-secret'] as const;

let gw: Gateway;
let org: { live: string; test: string };
beforeAll(async () => {
  gw = await startGateway({ trustProxy: ['loopback'] });
  org = await gw.organization('pro');
}, 60_000);
afterAll(async () => {
  await gw?.close();
});

function body(holders: number): Json {
  const b = validBody('adf', 'employer', holders) as Json;
  b.declarations[0].holders.forEach((h: Json, i: number) => {
    h.nir = `1${String(70 + (i % 20)).padStart(2, '0')}0275${String(100 + i).padStart(3, '0')}${String(1 + (i % 998)).padStart(3, '0')}`;
    h.unique_id = `SH-${i}`;
  });
  return b;
}

/** The CSP as a map of directive → values. */
function csp(res: request.Response): Map<string, string[]> {
  const header = res.headers['content-security-policy'] as string | undefined;
  expect(header).toBeDefined();
  return new Map(
    header!
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!.toLowerCase(), values] as [string, string[]];
      }),
  );
}

/** Headers every answer carries, whatever its route or status. */
function expectCommonHeaders(res: request.Response): void {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-powered-by']).toBeUndefined();
  expect(csp(res).get('frame-ancestors')).toEqual(["'none'"]);
}

/** A data answer (JSON, CSV, text): nothing may load or run. */
function expectDataHeaders(res: request.Response): void {
  expectCommonHeaders(res);
  expect(csp(res).get('default-src')).toEqual(["'none'"]);
}

/** An HTML page: its own origin only, no inline or evaluated script, no third-party origin at all. */
function expectPageHeaders(res: request.Response): void {
  expectCommonHeaders(res);
  const policy = csp(res);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  const allValues = [...policy.values()].flat();
  expect(
    allValues.filter((v) => /^(https?:|wss?:|\*|[a-z0-9.-]+\.[a-z]{2,})/i.test(v) || v === "'unsafe-eval'"),
  ).toEqual([]);
}

const noStore = (res: request.Response) => expect(res.headers['cache-control']).toBe('no-store');

describe('security headers on every answer', () => {
  it('an API 200', async () => {
    const res = await request(gw.http).get('/v1/spec').set(bearer(org.live));
    expect(res.status).toBe(200);
    expectDataHeaders(res);
    noStore(res);
  });

  it('a 401 written by the key middleware, and a 400 written by the body middleware', async () => {
    const missing = await request(gw.http).get('/v1/spec');
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('MISSING_API_KEY');
    expectDataHeaders(missing);
    noStore(missing);
    const invalid = await request(gw.http).get('/v1/spec').set(bearer('sk_live_nonsense'));
    expect(invalid.status).toBe(401);
    expectDataHeaders(invalid);
    const badJson = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(org.live))
      .set('Content-Type', 'application/json')
      .send('{"declarations": [');
    expect(badJson.status).toBe(400);
    expectDataHeaders(badJson);
    noStore(badJson);
  });

  it('404s: an unknown route outside and inside the API', async () => {
    const outside = await request(gw.http).get('/nowhere');
    expect(outside.status).toBe(404);
    expectDataHeaders(outside);
    const inside = await request(gw.http).get('/v1/nowhere').set(bearer(org.live));
    expect(inside.status).toBe(404);
    expectDataHeaders(inside);
    noStore(inside);
  });

  it('health answers', async () => {
    const res = await request(gw.http).get('/health');
    expect(res.status).toBe(200);
    expectDataHeaders(res);
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('Swagger UI at /docs: a strict CSP naming no other origin', async () => {
    const page = await request(gw.http).get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expectPageHeaders(page);
    // Its scripts are files of the gateway, never inline (script-src 'self' only).
    expect(page.text).not.toMatch(/<script>(?!\s*<\/script>)/);
    const init = await request(gw.http).get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('"validatorUrl": null');
    expectCommonHeaders(init);
  });

  it('the OpenAPI document at /docs-json: a data answer', async () => {
    const doc = await request(gw.http).get('/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expectDataHeaders(doc);
  });

  it('Bull Board at /admin/queues (operator credentials): a strict CSP, and no Google Fonts in its HTML', async () => {
    const page = await request(gw.http)
      .get('/admin/queues')
      .auth(...OPERATOR);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    expectPageHeaders(page);
    noStore(page);
    expect(page.text).not.toMatch(/fonts\.googleapis|fonts\.gstatic|https?:\/\//);
    // Its own stylesheet still loads.
    expect(page.text).toMatch(/<link href="static\/css\/main\.[0-9a-f]+\.css" rel="stylesheet">/);
    const api = await request(gw.http)
      .get('/admin/queues/api/queues')
      .auth(...OPERATOR);
    expect(api.status).toBe(200);
    expectCommonHeaders(api);
    noStore(api);
    const refused = await request(gw.http).get('/admin/queues');
    expect(refused.status).toBe(401);
    expectCommonHeaders(refused);
  });
});

describe('Cache-Control: no-store on personal data', () => {
  it('generate (store: false carries the CSV), its download, and a 422 with row details', async () => {
    const unstored = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .send({ ...body(2), options: { store: false } });
    expect(unstored.status).toBe(200);
    expect(unstored.body.content).toMatch(/^ID_DECLARATION\|/);
    noStore(unstored);
    expectDataHeaders(unstored);

    const stored = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(body(2));
    expect(stored.status).toBe(200);
    noStore(stored);
    const download = await request(gw.http)
      .get(`/v1/files/${stored.body.file_id}/download`)
      .set(bearer(org.live))
      .buffer(true);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toMatch(/^text\/csv/);
    noStore(download);
    expectDataHeaders(download);
    const metadata = await request(gw.http).get(`/v1/files/${stored.body.file_id}`).set(bearer(org.live));
    noStore(metadata);

    const invalid = body(2);
    invalid.declarations[0].holders[1].nir = 'nonsense';
    const refused = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(invalid);
    expect(refused.status).toBe(422);
    noStore(refused);
    expectDataHeaders(refused);
  });

  it('both validate endpoints, valid or not', async () => {
    const declarations = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(org.live))
      .send(body(3));
    expect(declarations.status).toBe(200);
    noStore(declarations);
    expectDataHeaders(declarations);

    const csv = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.test))
      .send({ ...body(3), options: { store: false } });
    const upload = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .attach('file', Buffer.from(csv.body.content, 'utf8'), csv.body.filename);
    expect(upload.status).toBe(200);
    expect(upload.body.valid).toBe(true);
    noStore(upload);
    expectDataHeaders(upload);
    const notMultipart = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .send(body(1));
    expect(notMultipart.status).toBe(415);
    noStore(notMultipart);
  });
});

// The operators' sign-in throttle (429 and Retry-After) is test/operator-throttle.e2e-spec.ts's.

// ---- docker-compose.yml ---------------------------------------------------------------------------
// The deployment's structure is test/deploy.e2e-spec.ts's; here, what an attacker on the network
// would look for: published ports, passwords, literal secrets.

describe('docker-compose.yml', () => {
  const root = path.join(__dirname, '..');
  const text = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
  const compose = parseYaml(text, { merge: true }) as Json;
  const services = compose.services as Json;
  const DATA_STORES = ['postgres', 'redis', 'minio'];
  /** `${NAME:?message}`: compose refuses to start while NAME is unset or empty. */
  const requiredVar = (v: unknown): string => {
    const m = /^\$\{([A-Z][A-Z0-9_]*):\?[^}]*\}$/.exec(String(v));
    expect({ value: v, required: m !== null }).toEqual({ value: v, required: true });
    return m![1]!;
  };

  it("publishes only the gateway (MinIO's console at most on loopback); the data stores sit on an internal network only", () => {
    for (const [name, service] of Object.entries(services) as [string, Json][]) {
      expect(service.network_mode).toBeUndefined();
      const ports = (service.ports ?? []) as string[];
      if (name === 'gateway')
        expect(ports.map((p) => p.replace(/^\$\{GATEWAY_PORT:-\d+\}/, 'X'))).toEqual(['X:3000']);
      else
        for (const p of ports)
          expect({ name, port: p }).toEqual({ name, port: expect.stringMatching(/^127\.0\.0\.1:/) });
    }
    for (const name of DATA_STORES) {
      expect({ name, networks: services[name].networks }).toEqual({ name, networks: ['data'] });
    }
    expect(compose.networks.data.internal).toBe(true);
  });

  it('PostgreSQL asks for a password (SCRAM, never trust); Redis too and keeps nothing on disk', () => {
    const pg = services.postgres.environment as Json;
    expect(JSON.stringify(services.postgres)).not.toMatch(/trust/i);
    expect(pg.POSTGRES_HOST_AUTH_METHOD).toBe('scram-sha-256');
    expect(requiredVar(pg.POSTGRES_PASSWORD)).toBe('POSTGRES_PASSWORD');
    const command = services.redis.command as string[];
    const option = (name: string) =>
      command.includes(name) ? command[command.indexOf(name) + 1] : undefined;
    expect(requiredVar(option('--requirepass'))).toBe('REDIS_PASSWORD');
    expect(option('--save')).toBe('');
    expect(option('--appendonly')).toBe('no');
  });

  it('holds no literal secret: every password, secret and key comes from .env, which leaves them empty', () => {
    for (const [service, def] of Object.entries(services) as [string, Json][]) {
      for (const [name, value] of Object.entries((def.environment ?? {}) as Json)) {
        if (/PASSWORD|SECRET|_KEY$/.test(name)) {
          expect({ service, name, value }).toEqual({
            service,
            name,
            value: expect.stringMatching(/^\$\{[A-Z][A-Z0-9_]*(:\?[^}]*|:-)\}$/),
          });
        }
      }
    }
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    for (const line of example.split('\n').filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l))) {
      const [name, value] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
      if (/PASSWORD|SECRET|_KEY$/.test(name)) expect({ name, value }).toEqual({ name, value: '' });
    }
    expect(example).toContain('openssl rand -base64 32');
  });
});

describe('Strict-Transport-Security', () => {
  it('is sent over TLS (here: a believed proxy says https), never over plain HTTP', async () => {
    for (const path of ['/v1/spec', '/dashboard/sign-in', '/health/live']) {
      const tls = await request(gw.http).get(path).set('X-Forwarded-Proto', 'https');
      expect(tls.headers['strict-transport-security']).toBe('max-age=31536000');
      const plain = await request(gw.http).get(path);
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    }
  });
});
