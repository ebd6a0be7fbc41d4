import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { startGateway, type Gateway } from './support/gateway';

/**
 * Issue "Hostile input and abuse", the browser-facing part: security headers on every answer of
 * the gateway, Cache-Control: no-store on the answers that carry personal data, the throttling of
 * operator sign-in failures, and docker-compose.yml publishing nothing but the gateway.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const OPERATOR = ['operator', 'operator-secret'] as const;

let gw: Gateway;
let org: { live: string; test: string };
beforeAll(async () => {
  gw = await startGateway();
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
  expect(allValues.filter((v) => /^(https?:|wss?:|\*|[a-z0-9.-]+\.[a-z]{2,})/i.test(v) || v === "'unsafe-eval'")).toEqual([]);
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
    const download = await request(gw.http).get(`/v1/files/${stored.body.file_id}/download`).set(bearer(org.live)).buffer(true);
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
    const declarations = await request(gw.http).post('/v1/declarations/validate').set(bearer(org.live)).send(body(3));
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
    const notMultipart = await request(gw.http).post('/v1/files/validate').set(bearer(org.live)).send(body(1));
    expect(notMultipart.status).toBe(415);
    noStore(notMultipart);
  });
});

describe('operator sign-in throttling', () => {
  it('11 wrong passwords from an address: 429 with Retry-After, even for the right password, until the window passes', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await request(gw.http).get('/admin/queues').auth('operator', `guess-${i}`);
      expect(res.status).toBe(401);
    }
    const eleventh = await request(gw.http).get('/admin/queues').auth('operator', 'guess-10');
    expect(eleventh.status).toBe(429);
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(290);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expectCommonHeaders(eleventh);
    const right = await request(gw.http)
      .get('/admin/queues')
      .auth(...OPERATOR);
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await request(gw.http).get('/admin/queues/api/queues').auth(...OPERATOR)).status).toBe(429);
    // Another address (through the trusted loopback proxy) is not refused.
    const elsewhere = await request(gw.http)
      .get('/admin/queues')
      .set('X-Forwarded-For', '198.51.100.1')
      .auth(...OPERATOR);
    expect(elsewhere.status).toBe(200);
    // Counted in Redis under the queue prefix, shared by the replicas.
    const keys = await gw.redis.keys(`${gw.config.queue.prefix}:opauth:*`);
    expect(keys.length).toBeGreaterThanOrEqual(2);

    gw.clock.advance(retryAfter * 1000);
    const after = await request(gw.http)
      .get('/admin/queues')
      .auth(...OPERATOR);
    expect(after.status).toBe(200);
  });

  it('20 wrong passwords for one user name from several addresses: that name is refused from anywhere', async () => {
    for (const address of ['203.0.113.1', '203.0.113.2']) {
      for (let i = 0; i < 10; i++) {
        const res = await request(gw.http).get('/admin/queues').set('X-Forwarded-For', address).auth('operator', `nope-${i}`);
        expect(res.status).toBe(401);
      }
    }
    const right = await request(gw.http)
      .get('/admin/queues')
      .set('X-Forwarded-For', '203.0.113.3')
      .auth(...OPERATOR);
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    // Another name from that address is only wrong.
    expect((await request(gw.http).get('/admin/queues').set('X-Forwarded-For', '203.0.113.3').auth('someone', 'x')).status).toBe(401);
    gw.clock.advance(5 * 60_000);
    expect((await request(gw.http).get('/admin/queues').set('X-Forwarded-For', '203.0.113.3').auth(...OPERATOR)).status).toBe(200);
  });
});

// ---- docker-compose.yml ---------------------------------------------------------------------------

type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

/**
 * The YAML that docker-compose.yml uses, and nothing more: block mappings, block sequences of
 * scalars, one-line flow sequences, `{}`, plain and quoted scalars, comments. Anything else (anchors,
 * multi-line strings, tags…) is refused loudly, so that this check never reads a file wrongly.
 */
function parseYaml(text: string): Yaml {
  const lines = text
    .split('\n')
    .map((raw, index) => {
      if (/^\t| \t/.test(raw)) throw new Error(`line ${index + 1}: tab in indentation`);
      const content = stripComment(raw).trimEnd();
      return { n: index + 1, indent: content.length - content.trimStart().length, text: content.trim() };
    })
    .filter((l) => l.text !== '');
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`docker-compose.yml line ${lines[Math.min(i, lines.length - 1)]!.n}: ${what}`);
  };
  const isItem = (t: string) => t === '-' || t.startsWith('- ');

  function node(indent: number): Yaml {
    return isItem(lines[i]!.text) ? sequence(indent) : mapping(indent);
  }
  function mapping(indent: number): { [key: string]: Yaml } {
    const out: { [key: string]: Yaml } = {};
    while (i < lines.length && lines[i]!.indent === indent && !isItem(lines[i]!.text)) {
      const m = /^("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+):(?:\s+(.*))?$/.exec(lines[i]!.text) ?? fail('not a "key: value" line');
      const key = scalar(m[1]!);
      if (key in out) fail(`duplicate key ${key}`);
      i++;
      if (m[2] !== undefined) out[key] = value(m[2]);
      else if (i < lines.length && lines[i]!.indent > indent) out[key] = node(lines[i]!.indent);
      else if (i < lines.length && lines[i]!.indent === indent && isItem(lines[i]!.text)) out[key] = sequence(indent);
      else out[key] = null;
    }
    if (i < lines.length && lines[i]!.indent > indent) fail('unexpected indentation');
    return out;
  }
  function sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    while (i < lines.length && lines[i]!.indent === indent && isItem(lines[i]!.text)) {
      const rest = lines[i]!.text.slice(1).trim();
      if (rest === '' || /^[A-Za-z0-9_.-]+:(\s|$)/.test(rest)) fail('only scalars are supported in block sequences');
      out.push(value(rest));
      i++;
    }
    return out;
  }
  function value(v: string): Yaml {
    if (/^[&*!|>%@`]/.test(v)) fail(`unsupported YAML: ${v}`);
    if (v === '{}') return {};
    if (v.startsWith('{')) fail('flow mappings are not supported');
    if (v.startsWith('[')) {
      if (!v.endsWith(']')) fail('a flow sequence must fit on one line');
      return splitFlow(v.slice(1, -1)).map(scalar);
    }
    return scalar(v);
  }
  function scalar(v: string): string {
    if (v.startsWith('"')) {
      if (!/^"(?:[^"\\]|\\.)*"$/.test(v)) fail(`bad double-quoted string ${v}`);
      return JSON.parse(v) as string;
    }
    if (v.startsWith("'")) {
      if (!/^'(?:[^']|'')*'$/.test(v)) fail(`bad single-quoted string ${v}`);
      return v.slice(1, -1).replace(/''/g, "'");
    }
    if (/^[[\]{},]|: /.test(v)) fail(`ambiguous plain scalar ${v}`);
    return v;
  }
  function splitFlow(inner: string): string[] {
    const items: string[] = [];
    let current = '';
    let quote: string | null = null;
    for (let k = 0; k < inner.length; k++) {
      const c = inner[k]!;
      if (quote) {
        current += c;
        if (c === '\\' && quote === '"') current += inner[++k] ?? '';
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'") {
        quote = c;
        current += c;
      } else if (c === ',') {
        items.push(current.trim());
        current = '';
      } else if (c === '[' || c === '{') fail('nested flow collections are not supported');
      else current += c;
    }
    if (quote) fail('unterminated quote');
    if (current.trim()) items.push(current.trim());
    return items;
  }

  if (!lines.length) return null;
  const root = node(0);
  if (i < lines.length) fail('trailing content');
  return root;
}

/** A line without its comment (a # at the start or after a space, outside quotes). */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let k = 0; k < line.length; k++) {
    const c = line[k]!;
    if (quote) {
      if (c === '\\' && quote === '"') k++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (k === 0 || /\s/.test(line[k - 1]!))) return line.slice(0, k);
  }
  return line;
}

describe('docker-compose.yml', () => {
  const root = path.join(__dirname, '..');
  const compose = parseYaml(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')) as Json;
  const services = compose.services as Json;
  const DATA_STORES = ['postgres', 'redis', 'minio'];
  /** `${NAME:?message}`: compose refuses to start while NAME is unset or empty. */
  const REQUIRED = /^\$\{([A-Z][A-Z0-9_]*):\?[^}]*\}$/;
  const requiredVar = (v: unknown): string => {
    expect(v).toMatch(REQUIRED);
    return REQUIRED.exec(v as string)![1]!;
  };

  it('keeps its services and images', () => {
    expect(Object.keys(services).sort()).toEqual(['gateway', 'minio', 'postgres', 'redis', 'worker']);
    expect(services.postgres.image).toBe('postgres:16');
    expect(services.redis.image).toBe('redis:7');
    expect(services.minio.image).toBe('minio/minio');
    expect(services.gateway.image).toBe('node:20');
    expect(services.worker.image).toBe('node:20');
  });

  it('publishes only the gateway; the data stores are on an internal network only', () => {
    for (const [name, service] of Object.entries(services) as [string, Json][]) {
      expect(service.network_mode).toBeUndefined();
      if (name === 'gateway') {
        expect(service.ports).toHaveLength(1);
        expect(service.ports[0]).toMatch(/:3000$/);
      } else {
        expect({ name, ports: service.ports }).toEqual({ name, ports: undefined });
      }
    }
    for (const name of DATA_STORES) {
      expect({ name, networks: services[name].networks }).toEqual({ name, networks: ['data'] });
      expect(services[name].expose).toBeUndefined();
    }
    expect(compose.networks.data.internal).toBe('true');
    expect(services.gateway.networks).toContain('data');
    expect(services.worker.networks).toContain('data');
  });

  it('PostgreSQL asks for a password (no trust), taken from .env', () => {
    const env = services.postgres.environment as Json;
    const text = JSON.stringify(services.postgres);
    expect(text).not.toMatch(/trust/i);
    expect(env.POSTGRES_HOST_AUTH_METHOD).toMatch(/^(scram-sha-256|md5)$/);
    expect(env.POSTGRES_INITDB_ARGS ?? '').not.toMatch(/=(trust|password)\b/);
    expect(requiredVar(env.POSTGRES_PASSWORD)).toBe('POSTGRES_PASSWORD');
    for (const app of ['gateway', 'worker']) {
      expect(services[app].environment.DATABASE_URL).toMatch(/^postgresql:\/\/postgres:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/ppfile$/);
    }
  });

  it('Redis requires a password and keeps nothing on disk', () => {
    const command = services.redis.command as string[];
    expect(command[0]).toBe('redis-server');
    const option = (name: string) => command[command.indexOf(name) + 1];
    expect(command).toContain('--requirepass');
    expect(requiredVar(option('--requirepass'))).toBe('REDIS_PASSWORD');
    expect(option('--save')).toBe('');
    expect(option('--appendonly')).toBe('no');
    for (const app of ['gateway', 'worker']) {
      expect(services[app].environment.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]*\}@redis:6379$/);
    }
  });

  it('MinIO credentials and the payload key come from .env, the same for the gateway and the worker', () => {
    const env = services.minio.environment as Json;
    expect(requiredVar(env.MINIO_ROOT_USER)).toBe('MINIO_ROOT_USER');
    expect(requiredVar(env.MINIO_ROOT_PASSWORD)).toBe('MINIO_ROOT_PASSWORD');
    for (const app of ['gateway', 'worker']) {
      const appEnv = services[app].environment as Json;
      expect(requiredVar(appEnv.S3_ACCESS_KEY)).toBe('MINIO_ROOT_USER');
      expect(requiredVar(appEnv.S3_SECRET_KEY)).toBe('MINIO_ROOT_PASSWORD');
      expect(requiredVar(appEnv.PAYLOAD_ENCRYPTION_KEY)).toBe('PAYLOAD_ENCRYPTION_KEY');
      expect(appEnv.S3_ENDPOINT).toBe('http://minio:9000');
    }
  });

  it('holds no literal secret, and .env.example names every variable it reads, with no real secret', () => {
    const text = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    const used = new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!));
    for (const service of Object.values(services) as Json[]) {
      for (const [name, value] of Object.entries((service.environment ?? {}) as Json)) {
        // A variable of .env, required (`:?`) or optional without a default (`:-}`): never a literal.
        if (/PASSWORD|SECRET|_KEY$/.test(name)) {
          expect({ name, value }).toEqual({ name, value: expect.stringMatching(/^\$\{[A-Z][A-Z0-9_]*(:\?[^}]*|:-)\}$/) });
        }
      }
    }
    const example = readFileSync(path.join(root, '.env.example'), 'utf8');
    const assigned = new Map(
      example
        .split('\n')
        .filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]),
    );
    expect([...used].filter((v) => !assigned.has(v))).toEqual([]);
    for (const [name, value] of assigned) {
      // Secrets are left empty: compose refuses to start until they are generated.
      if (/PASSWORD|SECRET|_KEY$/.test(name)) expect({ name, value }).toEqual({ name, value: '' });
    }
    expect(example).toContain('openssl rand -base64 32');
  });
});
