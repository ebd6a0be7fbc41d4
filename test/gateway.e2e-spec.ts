import { createHash } from 'node:crypto';
import request from 'supertest';
import { monthOf } from '@ppfile/db';
import { FileLifecycle, PayloadCipher } from '@ppfile/jobs';
import { NIR_A, NIR_B, validBody } from '@ppfile/rules/testing/fixtures';
import { columnsOf, testEnv } from '@ppfile/rules/testing/format-helpers';
import { importSheet } from '@ppfile/sheets';
import { captureOutput, startGateway, TEST_PAYLOAD_KEY, type Gateway } from './support/gateway';
import { suiteLogs } from './support/logs';

/**
 * The HTTP API end to end (API.md §6–§10) against the machine's PostgreSQL and Redis and an S3
 * endpoint on loopback. Every status code of API.md §6 is reached here.
 */
let gw: Gateway;
const output = captureOutput();
const NIRS_SEEN = new Set<string>([NIR_A, NIR_B]);

beforeAll(async () => {
  gw = await startGateway();
}, 60_000);
afterAll(async () => {
  await gw?.close();
  output.stop();
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A valid body with `holders` holders, each with its own NIR (recorded for the log check). */
function body(
  holders: number,
  type: 'adf' | 'jdr' = 'adf',
  declarant: 'employer' | 'training_organization' = 'employer',
): Json {
  const b = validBody(type, declarant, holders) as Json;
  b.declarations[0].holders.forEach((h: Json, i: number) => {
    const nir = `1${String(80 + (i % 20)).padStart(2, '0')}0175${String(100 + i).padStart(3, '0')}${String(1 + (i % 998)).padStart(3, '0')}`;
    h.nir = nir;
    h.unique_id = `E2E-${i}`;
    NIRS_SEEN.add(nir);
  });
  return b;
}

function expectError(res: request.Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(res.body.error.request_id).toMatch(/^req_[0-9a-f]+$/);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.details).toBeDefined();
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .*\.(js|ts):\d+/);
}

describe('authentication (401)', () => {
  it('refuses a request without a key: MISSING_API_KEY, with rate-limit headers', async () => {
    const res = await request(gw.http).get('/v1/spec');
    expectError(res, 401, 'MISSING_API_KEY');
    expect(res.headers['x-ratelimit-limit']).toBe('30');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('refuses an unknown, malformed or revoked key: INVALID_API_KEY', async () => {
    expectError(
      await request(gw.http)
        .get('/v1/spec')
        .set(bearer('pp_live_' + 'x'.repeat(40))),
      401,
      'INVALID_API_KEY',
    );
    expectError(await request(gw.http).get('/v1/spec').set(bearer('nonsense')), 401, 'INVALID_API_KEY');
    expectError(
      await request(gw.http).get('/v1/spec').set({ Authorization: 'Basic abc' }),
      401,
      'INVALID_API_KEY',
    );
    const org = await gw.organization('pro');
    expect((await request(gw.http).get('/v1/spec').set(bearer(org.live))).status).toBe(200);
    await gw.stores.apiKeys.revokeApiKey(org.liveId);
    expectError(await request(gw.http).get('/v1/spec').set(bearer(org.live)), 401, 'INVALID_API_KEY');
  });

  it('keeps an incoming safe X-Request-Id', async () => {
    const res = await request(gw.http).get('/v1/spec').set({ 'X-Request-Id': 'client-123' });
    expect(res.headers['x-request-id']).toBe('client-123');
    expect(res.body.error.request_id).toBe('client-123');
  });
});

describe('requests (400, 413, 415, 422)', () => {
  let key: string;
  beforeAll(async () => {
    key = (await gw.organization('business')).live;
  });

  it('INVALID_JSON for an unreadable body', async () => {
    const res = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(key))
      .set('Content-Type', 'application/json')
      .send('{"type": "adf",');
    expectError(res, 400, 'INVALID_JSON');
  });

  it('INVALID_REQUEST naming each problem in details.fields', async () => {
    const b = body(1);
    b.colour = 'blue';
    b.options = { retention_hours: 25 };
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(key)).send(b);
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.body.error.details.fields.map((f: Json) => f.field).sort()).toEqual([
      'colour',
      'options.retention_hours',
    ]);
    // An upload's form fields likewise: an unknown one is named, as the document's schema refuses it.
    const up = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(key))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .field('colour', 'blue')
      .attach('file', Buffer.from('x'), 'f.csv');
    expectError(up, 400, 'INVALID_REQUEST');
    expect(up.body.error.details.fields).toEqual([{ field: 'colour', message: 'is not a known field' }]);
  });

  it('UNSUPPORTED_SPEC_VERSION', async () => {
    const res = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(key))
      .send({ ...body(1), spec_version: '2025-01' });
    expectError(res, 400, 'UNSUPPORTED_SPEC_VERSION');
    expectError(
      await request(gw.http).get('/v1/spec/1999-01').set(bearer(key)),
      400,
      'UNSUPPORTED_SPEC_VERSION',
    );
  });

  it('UNSUPPORTED_MEDIA_TYPE for a body that is not JSON, or an upload that is not multipart', async () => {
    const res = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(key))
      .set('Content-Type', 'text/plain')
      .send('hello');
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const up = await request(gw.http).post('/v1/files/validate').set(bearer(key)).send(body(1));
    expectError(up, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('PAYLOAD_TOO_LARGE for a JSON body over 20 MB and an upload over 20 MB', async () => {
    const big = JSON.stringify({ ...body(1), padding: 'x'.repeat(20 * 1024 * 1024) });
    const res = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(key))
      .set('Content-Type', 'application/json')
      .send(big);
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    const up = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(key))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .attach('file', Buffer.alloc(20 * 1024 * 1024 + 10, 'a'), 'big.csv');
    expectError(up, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('LINE_LIMIT_EXCEEDED past 50 rows with a test key (details.limit)', async () => {
    const org = await gw.organization('business');
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.test)).send(body(51));
    expectError(res, 413, 'LINE_LIMIT_EXCEEDED');
    expect(res.body.error.details.limit).toBe(50);
    const ok = await request(gw.http).post('/v1/declarations/validate').set(bearer(org.test)).send(body(50));
    expect(ok.status).toBe(200);
  });

  it('VALIDATION_FAILED (422) with the validation response in details; nothing produced or counted', async () => {
    const org = await gw.organization('starter');
    const b = body(3);
    b.declarations[0].holders[1].nir = '255081416802539';
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(b);
    expectError(res, 422, 'VALIDATION_FAILED');
    expect(res.body.error.details).toMatchObject({
      valid: false,
      rows_total: 3,
      rows_invalid: 1,
      error_count: 1,
      truncated: false,
    });
    expect(res.body.error.details.errors[0]).toMatchObject({
      row: 3,
      column: 'NIR',
      code: 'INVALID_NIR_KEY',
      field: 'declarations[0].holders[1].nir',
    });
    expect(await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).toMatchObject({ used: 0 });
    expect(await gw.prisma.fileRecord.count({ where: { organizationId: org.id } })).toBe(0);
  });

  it('messages follow Accept-Language', async () => {
    const res = await request(gw.http).get('/v1/spec').set('Accept-Language', 'fr-FR,fr;q=0.9');
    expect(res.body.error.message).toMatch(/clé d'API/);
  });

  it('an unknown route is NOT_FOUND in the API shape', async () => {
    expectError(await request(gw.http).get('/v1/nothing-here').set(bearer(key)), 404, 'NOT_FOUND');
  });
});

describe('generation, files and downloads (200, 404, 410)', () => {
  let org: Awaited<ReturnType<Gateway['organization']>>;
  beforeAll(async () => {
    org = await gw.organization('pro');
  });

  it('stores the file: metadata and a byte-identical download with the headers of API.md §7', async () => {
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(body(3));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      mode: 'live',
      rows: 3,
      declarations: 1,
      stored: true,
      spec_version: '2026-02',
    });
    expect(res.body.file_id).toMatch(/^file_[0-9a-f]{32}$/);
    expect(res.body.filename).toMatch(/^ppfile_adf_\d{8}_[0-9a-f]{8}\.csv$/);
    expect(res.body.download_url).toBe(`http://ppfile.test/v1/files/${res.body.file_id}/download`);
    expect(res.body.content).toBeUndefined();
    expect(new Date(res.body.expires_at).getTime() - gw.clock.now().getTime()).toBeGreaterThan(
      23.9 * 3600_000,
    );

    const meta = await request(gw.http).get(`/v1/files/${res.body.file_id}`).set(bearer(org.live));
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({
      file_id: res.body.file_id,
      status: 'available',
      rows: 3,
      stored: true,
      sha256: res.body.sha256,
    });

    const dl = await request(gw.http)
      .get(`/v1/files/${res.body.file_id}/download`)
      .set(bearer(org.live))
      .buffer(true);
    expect(dl.status).toBe(200);
    expect(dl.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="${res.body.filename}"`);
    expect(dl.headers.etag).toBe(`"${res.body.sha256}"`);
    const bytes = Buffer.from(dl.text, 'utf8');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(res.body.sha256);
    expect(dl.text.endsWith('\r\n')).toBe(true);
    // Conditional GET: the copy the client has is this file → 304 without a body; another ETag → 200.
    const path = `/v1/files/${res.body.file_id}/download`;
    const same = await request(gw.http)
      .get(path)
      .set(bearer(org.live))
      .set('If-None-Match', `W/"x", "${res.body.sha256}"`);
    expect([same.status, same.headers.etag, same.text ?? '']).toEqual([304, `"${res.body.sha256}"`, '']);
    expect(
      (await request(gw.http).get(path).set(bearer(org.live)).set('If-None-Match', '"other"')).status,
    ).toBe(200);
    expect(await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).toMatchObject({ used: 3 });
  });

  it('store: false returns the content, keeps metadata only, and has no download (FILE_NOT_STORED)', async () => {
    const res = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .send({ ...body(2), options: { store: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stored: false, expires_at: null, download_url: null });
    expect(res.body.content.startsWith('ID_DECLARATION|')).toBe(true);
    const meta = await request(gw.http).get(`/v1/files/${res.body.file_id}`).set(bearer(org.live));
    expect(meta.body.status).toBe('not_stored');
    expectError(
      await request(gw.http).get(`/v1/files/${res.body.file_id}/download`).set(bearer(org.live)),
      404,
      'FILE_NOT_STORED',
    );
    const objects = await gw.storage.exists(`files/${res.body.file_id}.csv`);
    expect(objects).toBe(false);
  });

  it('another key — even of the same organization — gets NOT_FOUND, as for an unknown id', async () => {
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(body(1));
    expectError(
      await request(gw.http).get(`/v1/files/${res.body.file_id}`).set(bearer(org.test)),
      404,
      'NOT_FOUND',
    );
    expectError(
      await request(gw.http).get(`/v1/files/${res.body.file_id}/download`).set(bearer(org.test)),
      404,
      'NOT_FOUND',
    );
    const other = await gw.organization('pro');
    expectError(
      await request(gw.http).get(`/v1/files/${res.body.file_id}/download`).set(bearer(other.live)),
      404,
      'NOT_FOUND',
    );
    expectError(
      await request(gw.http)
        .get(`/v1/files/file_${'0'.repeat(32)}`)
        .set(bearer(org.live)),
      404,
      'NOT_FOUND',
    );
  });

  it('expiry: after retention_hours the download is 410 even before the sweep; the sweep deletes the object', async () => {
    const res = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .send({ ...body(1), options: { retention_hours: 1 } });
    const id = res.body.file_id;
    expect(await gw.storage.exists(`files/${id}.csv`)).toBe(true);
    gw.clock.advance(3600_000 + 1000);
    try {
      expectError(
        await request(gw.http).get(`/v1/files/${id}/download`).set(bearer(org.live)),
        410,
        'FILE_EXPIRED',
      );
      const meta = await request(gw.http).get(`/v1/files/${id}`).set(bearer(org.live));
      expect(meta.status).toBe(200);
      expect(meta.body.status).toBe('expired');
      // The workers' repeatable `sweep` job runs this function (libs/jobs).
      const lifecycle = new FileLifecycle({
        prisma: gw.prisma,
        stores: gw.stores,
        storage: gw.storage,
        cipher: new PayloadCipher(TEST_PAYLOAD_KEY),
        now: () => gw.clock.now(),
      });
      const swept = await lifecycle.sweepExpired();
      expect(swept).toBeGreaterThanOrEqual(1);
      expect(await gw.storage.exists(`files/${id}.csv`)).toBe(false);
      expect((await gw.stores.files.getFileRecord(id))!.status).toBe('expired');
      expectError(
        await request(gw.http).get(`/v1/files/${id}/download`).set(bearer(org.live)),
        410,
        'FILE_EXPIRED',
      );
    } finally {
      gw.clock.advance(-(3600_000 + 1000));
    }
  });

  it('test keys are free and answer mode "test"', async () => {
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.test)).send(body(2));
    expect(res.body.mode).toBe('test');
    const before = (await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).used;
    await request(gw.http).post('/v1/files/generate').set(bearer(org.test)).send(body(5));
    expect((await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).used).toBe(before);
  });
});

describe('file validation (POST /v1/files/validate)', () => {
  it('validates an upload in memory, counts its rows, and reports file rejections without counting', async () => {
    const org = await gw.organization('pro');
    const gen = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.test))
      .send({ ...body(4), options: { store: false } });
    const csv = Buffer.from(gen.body.content, 'utf8');
    const ok = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .attach('file', csv, gen.body.filename);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, file_rejected: false, rows_total: 4, error_count: 0 });
    const month = monthOf(gw.clock.now());
    expect((await gw.stores.usage.getUsage(org.id, month)).used).toBe(4);

    const rejected = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'jdr')
      .field('declarant', 'employer')
      .attach('file', csv, gen.body.filename);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ valid: false, file_rejected: true, rows_total: 0 });
    expect(rejected.body.errors[0]).toMatchObject({ row: 1, code: 'INVALID_HEADER' });
    expect((await gw.stores.usage.getUsage(org.id, month)).used).toBe(4);

    const missing = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'employer');
    expectError(missing, 400, 'INVALID_REQUEST');
    const wrongType = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'xyz')
      .field('declarant', 'employer')
      .attach('file', csv, 'a.csv');
    expectError(wrongType, 400, 'INVALID_REQUEST');
  });

  it("a bad form is INVALID_REQUEST naming every field at once (the form DTO), in the caller's language", async () => {
    const org = await gw.organization('pro');
    const month = monthOf(gw.clock.now());
    const before = (await gw.stores.usage.getUsage(org.id, month)).used;
    const res = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'xyz')
      .field('strict_references', 'maybe')
      .field('colour', 'blue');
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.body.error.message).toBe('The request is malformed (5 problems; see details.fields).');
    expect(res.body.error.details.field_count).toBe(5);
    expect(new Map(res.body.error.details.fields.map((f: Json) => [f.field, f.message]))).toEqual(
      new Map([
        ['colour', 'is not a known field'],
        ['file', 'is required'],
        ['type', 'must be one of: adf, jdr'],
        ['declarant', 'is required'],
        ['strict_references', 'must be one of: true, false'],
      ]),
    );
    const fr = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .set('Accept-Language', 'fr')
      .field('type', 'adf')
      .field('declarant', 'employer')
      .field('strict_references', 'oui')
      .attach('file', Buffer.from('x'), 'f.csv');
    expectError(fr, 400, 'INVALID_REQUEST');
    expect(fr.body.error.details.fields).toEqual([
      { field: 'strict_references', message: "doit valoir l'une des valeurs: true, false" },
    ]);
    // A field named like a member of Object.prototype is as unknown as any other.
    const proto = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .field('constructor', 'x')
      .attach('file', Buffer.from('x'), 'f.csv');
    expectError(proto, 400, 'INVALID_REQUEST');
    expect(proto.body.error.details.fields).toEqual([
      { field: 'constructor', message: 'is not a known field' },
    ]);
    // Refused before anything is reserved or counted.
    expect((await gw.stores.usage.getUsage(org.id, month)).used).toBe(before);
  });
});

describe('spreadsheets in (API.md §14): import and fix', () => {
  /** An official CSV made by the API itself (store: false), and its generate answer. */
  async function officialCsv(key: string, rows: number) {
    const gen = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(key))
      .send({ ...body(rows), options: { store: false } });
    expect(gen.status).toBe(200);
    return { csv: Buffer.from(gen.body.content as string, 'utf8'), gen: gen.body as Json };
  }

  it('import: an official CSV reads back into a body that generates the same bytes; free; every entry names its cell', async () => {
    const org = await gw.organization('pro');
    const { csv, gen } = await officialCsv(org.test, 3);
    const month = monthOf(gw.clock.now());
    const before = (await gw.stores.usage.getUsage(org.id, month)).used;
    const imported = await request(gw.http)
      .post('/v1/declarations/import')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .attach('file', csv, 'sessions.csv');
    expect(imported.status).toBe(200);
    expect(imported.headers['cache-control']).toBe('no-store');
    expect(imported.body).toMatchObject({
      sheet: 'sessions.csv',
      header_row: 1,
      rows_read: 3,
      declarations: 1,
      unmapped_headers: [],
      missing_columns: [],
      issue_count: 0,
      validation: { valid: true, rows_total: 3, error_count: 0 },
    });
    expect((await gw.stores.usage.getUsage(org.id, month)).used).toBe(before);
    // Sent to generate as it is: the same file, byte for byte.
    const again = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.test))
      .send({ ...imported.body.body, options: { store: false } });
    expect(again.status).toBe(200);
    expect(again.body.sha256).toBe(gen.sha256);

    // A broken NIR: the error names its cell (column C of row 3 of the CSV "sheet").
    const lines = csv.toString('utf8').split('\r\n');
    const header = lines[0]!.split('|');
    const nirAt = header.indexOf('NIR');
    const cells = lines[2]!.split('|');
    cells[nirAt] = '123';
    lines[2] = cells.join('|');
    const broken = await request(gw.http)
      .post('/v1/declarations/import')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .attach('file', Buffer.from(lines.join('\r\n')), 'sessions.csv');
    expect(broken.status).toBe(200);
    expect(broken.body.validation.valid).toBe(false);
    expect(broken.body.validation.errors[0]).toMatchObject({
      row: 3,
      column: 'NIR',
      code: 'INVALID_NIR',
      // A sheet name with a dot is quoted, as a spreadsheet writes it.
      cell: `'sessions.csv'!${String.fromCharCode(65 + nirAt)}3`,
    });
    expect(JSON.stringify(broken.body.validation)).not.toContain(NIR_A);
  });

  it('import refusals: not a spreadsheet (UNREADABLE_FILE), a test key past 50 rows (413), a mapping that is not JSON, an unknown field', async () => {
    const org = await gw.organization('pro');
    const form = () =>
      request(gw.http)
        .post('/v1/declarations/import')
        .set(bearer(org.live))
        .field('type', 'adf')
        .field('declarant', 'employer');
    expectError(
      await form().attach('file', Buffer.from('PK\x03\x04 not a zip at all'), 'x.xlsx'),
      400,
      'UNREADABLE_FILE',
    );
    const { csv } = await officialCsv(org.live, 51);
    expectError(
      await request(gw.http)
        .post('/v1/declarations/import')
        .set(bearer(org.test))
        .field('type', 'adf')
        .field('declarant', 'employer')
        .attach('file', csv, 'big.csv'),
      413,
      'LINE_LIMIT_EXCEEDED',
    );
    const mapping = await form().field('mapping', '{nope').attach('file', csv, 'a.csv');
    expectError(mapping, 400, 'INVALID_REQUEST');
    expect(mapping.body.error.details.fields.map((f: Json) => f.field)).toEqual(['mapping']);
    const unknown = await form().field('sheets', 'x').attach('file', csv, 'a.csv');
    expectError(unknown, 400, 'INVALID_REQUEST');
  });

  it('fix: LF endings and an ISO date mended and listed, the result validated, counted as a validation', async () => {
    const org = await gw.organization('pro');
    const { csv } = await officialCsv(org.test, 2);
    const lines = csv.toString('utf8').split('\r\n');
    const header = lines[0]!.split('|');
    const at = header.indexOf('DATE_DEBUT_FORMATION');
    const row = lines[1]!.split('|');
    const [d, m, y] = row[at]!.split('/');
    row[at] = `${y}-${m}-${d}`;
    lines[1] = row.join('|');
    const edited = Buffer.from(lines.join('\n'), 'utf8');
    const month = monthOf(gw.clock.now());
    const before = (await gw.stores.usage.getUsage(org.id, month)).used;
    const fixed = await request(gw.http)
      .post('/v1/files/fix')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'employer')
      .attach('file', edited, 'edited.csv');
    expect(fixed.status).toBe(200);
    expect(fixed.body.content).toBe(csv.toString('utf8'));
    expect(fixed.body.changes).toEqual(
      expect.arrayContaining([
        { row: null, column: null, rule: 'CRLF_LINE_ENDINGS' },
        expect.objectContaining({ row: 2, column: 'DATE_DEBUT_FORMATION' }),
      ]),
    );
    expect(fixed.body.validation).toMatchObject({ valid: true, rows_total: 2, file_rejected: false });
    expect((await gw.stores.usage.getUsage(org.id, month)).used).toBe(before + 2);

    // A header fixing cannot mend: no content, the validation says why, nothing counted.
    const rejected = await request(gw.http)
      .post('/v1/files/fix')
      .set(bearer(org.live))
      .field('type', 'jdr')
      .field('declarant', 'employer')
      .attach('file', csv, 'a.csv');
    expect(rejected.status).toBe(200);
    expect(rejected.body.content).toBeUndefined();
    expect(rejected.body.validation).toMatchObject({ file_rejected: true });
    expect((await gw.stores.usage.getUsage(org.id, month)).used).toBe(before + 2);
  });
});

describe("FILING_DEADLINE_PASSED: the declarant's timetable, with details.deadline (API.md §4)", () => {
  /** A body whose training ended on 15/10/2025 (the clock is the real one: that is in the past). */
  function endedOctober2025(declarant: 'employer' | 'training_organization'): Json {
    const b = body(2, 'adf', declarant);
    Object.assign(b.declarations[0].training, { start_date: '2025-10-15', end_date: '2025-10-15' });
    b.declarations[0].holders.forEach((h: Json) => {
      h.validity_start = '2025-10-15';
      delete h.validity_end;
    });
    return b;
  }
  /** The fixture's partial-list NSF code brings a REFERENCE_NOT_VERIFIED warning too: not this test's. */
  const deadlines = (warnings: Json[]) => warnings.filter((w) => w.code !== 'REFERENCE_NOT_VERIFIED');

  it('an employer has no deadline for it; a training organization had 30/09/2026 — JSON, generate and upload alike', async () => {
    const org = await gw.organization('pro');
    const employer = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(org.test))
      .send(endedOctober2025('employer'));
    expect(employer.status).toBe(200);
    expect(employer.body.valid).toBe(true);
    expect(deadlines(employer.body.warnings)).toEqual([]);

    const warning = {
      row: 2,
      column: 'DATE_FIN_FORMATION',
      field: 'declarations[0].training.end_date',
      code: 'FILING_DEADLINE_PASSED',
      message: 'The legal filing deadline of this declaration (30/09/2026) has passed.',
      details: { deadline: '30/09/2026' },
    };
    const of = await request(gw.http)
      .post('/v1/declarations/validate')
      .set(bearer(org.test))
      .set('Accept-Language', 'fr')
      .send(endedOctober2025('training_organization'));
    expect(of.status).toBe(200);
    expect(deadlines(of.body.warnings)).toEqual([
      { ...warning, message: 'La date limite légale de déclaration (30/09/2026) est dépassée.' },
    ]);

    const gen = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.test))
      .send({ ...endedOctober2025('training_organization'), options: { store: false } });
    expect(gen.status).toBe(200);
    expect(deadlines(gen.body.warnings)).toEqual([warning]);

    const up = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.test))
      .field('type', 'adf')
      .field('declarant', 'training_organization')
      .attach('file', Buffer.from(gen.body.content, 'utf8'), gen.body.filename);
    expect(up.status).toBe(200);
    // An uploaded file has no JSON path: the same entry without `field`.
    expect(deadlines(up.body.warnings)).toEqual([{ ...warning, field: undefined }]);
  });
});

describe('spec endpoints', () => {
  it('GET /v1/spec, /v1/spec/{version} and the reference search', async () => {
    const { live } = await gw.organization('pro');
    expect((await request(gw.http).get('/v1/spec').set(bearer(live))).body).toEqual({
      current: '2026-02',
      versions: ['2026-02'],
    });
    const spec = await request(gw.http).get('/v1/spec/2026-02').set(bearer(live));
    expect(spec.status).toBe(200);
    expect(spec.body.kinds).toHaveLength(4);
    expect(spec.body.enumerations.QUALIFICATION_FORMATEUR).toHaveLength(7);
    expect(spec.body.reference_lists.map((l: Json) => l.name)).toEqual(['rome', 'formacode', 'nsf', 'rs']);
    const nsf = await request(gw.http).get('/v1/spec/2026-02/references/nsf?q=344&limit=2').set(bearer(live));
    expect(nsf.status).toBe(200);
    expect(nsf.body.items[0].code).toBe('344');
    expectError(
      await request(gw.http).get('/v1/spec/2026-02/references/naf').set(bearer(live)),
      404,
      'NOT_FOUND',
    );
    expectError(
      await request(gw.http).get('/v1/spec/2026-02/references/rome?limit=0').set(bearer(live)),
      400,
      'INVALID_REQUEST',
    );
  });

  it('GET /v1/spec/{version}/template: the XLSX of one kind, free, that imports back as an empty sheet of official headers', async () => {
    const org = await gw.organization('pro');
    const binary = (res: request.Response, done: (e: Error | null, body: Buffer) => void) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    };
    const res = await request(gw.http)
      .get('/v1/spec/2026-02/template?type=jdr&declarant=training_organization')
      .set(bearer(org.live))
      .buffer(true)
      .parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="ppfile_template_jdr_training_organization_2026-02.xlsx"',
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const bytes = res.body as Buffer;
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    const back = importSheet(
      bytes,
      { type: 'jdr', declarant: 'training_organization', filename: 'template.xlsx' },
      testEnv(),
    );
    expect(back).toMatchObject({ sheet: 'Declarations', header_row: 1, rows_read: 0, unmapped_headers: [] });
    expect(back.mapping.every((m) => m.how === 'name')).toBe(true);
    expect(back.mapping.map((m) => m.column)).toEqual(columnsOf('jdr'));
    expect((await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).used).toBe(0);

    const missing = await request(gw.http)
      .get('/v1/spec/2026-02/template?type=adf')
      .set(bearer(org.live))
      .set('Accept-Language', 'fr');
    expectError(missing, 400, 'INVALID_REQUEST');
    expect(missing.body.error.details.fields.map((f: Json) => f.field)).toEqual(['declarant']);
    expectError(
      await request(gw.http)
        .get('/v1/spec/1999-01/template?type=adf&declarant=employer')
        .set(bearer(org.live)),
      400,
      'UNSUPPORTED_SPEC_VERSION',
    );
    expectError(
      await request(gw.http).get('/v1/spec/2026-02/template?type=adf&declarant=employer'),
      401,
      'MISSING_API_KEY',
    );
  });

  it('parameters go through their DTOs: INVALID_REQUEST naming the query parameter, a route parameter answered as API.md §6 says', async () => {
    const { live } = await gw.organization('pro');
    const search = (query: string, lang = 'en') =>
      request(gw.http)
        .get(`/v1/spec/2026-02/references/rome${query}`)
        .set(bearer(live))
        .set('Accept-Language', lang);
    const bad = await search('?limit=501');
    expectError(bad, 400, 'INVALID_REQUEST');
    expect(bad.body.error.details).toEqual({
      fields: [{ field: 'limit', message: 'must be an integer from 1 to 500' }],
      field_count: 1,
    });
    const fr = await search('?limit=ten', 'fr');
    expect(fr.body.error.message).toBe('La requête est mal formée (1 problème ; voir details.fields).');
    expect(fr.body.error.details.fields).toEqual([
      { field: 'limit', message: 'doit être un entier de 1 à 500' },
    ]);
    // A repeated parameter is a list, not a text: named now (it reached the search before).
    const twice = await search('?q=a&q=b&limit=0');
    expectError(twice, 400, 'INVALID_REQUEST');
    expect(twice.body.error.details.fields).toEqual([
      { field: 'q', message: 'must be a string' },
      { field: 'limit', message: 'must be an integer from 1 to 500' },
    ]);
    // An unknown query parameter is ignored, as it always was; a limit is taken as a number.
    const ok = await search('?q=soudage&limit=1&_=12345');
    expect(ok.status).toBe(200);
    expect(ok.body.items.length).toBeLessThanOrEqual(1);
    // Route parameters that name nothing: the version first, then the list, then the query.
    expectError(
      await request(gw.http).get('/v1/spec/1999-01/references/naf?limit=0').set(bearer(live)),
      400,
      'UNSUPPORTED_SPEC_VERSION',
    );
    expectError(
      await request(gw.http).get('/v1/spec/2026-02/references/naf?limit=0').set(bearer(live)),
      404,
      'NOT_FOUND',
    );
    expectError(await request(gw.http).get('/v1/files/not-a-file-id').set(bearer(live)), 404, 'NOT_FOUND');
    expectError(
      await request(gw.http).get('/v1/files/not-a-file-id/download').set(bearer(live)),
      404,
      'NOT_FOUND',
    );
  });
});

describe('OpenAPI', () => {
  it('serves the document generated from the code at /docs-json and Swagger UI at /docs', async () => {
    const doc = await request(gw.http).get('/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/declarations/validate',
        '/v1/files/generate',
        '/v1/files/validate',
        '/v1/files/{id}',
        '/v1/files/{id}/download',
        '/v1/spec',
      ]),
    );
    const ui = await request(gw.http).get('/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });
});

describe('rate limits (429)', () => {
  it('per key and organization per minute, with Retry-After and the tighter remaining count', async () => {
    const org = await gw.organization('free');
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await request(gw.http)
        .get('/v1/spec')
        .set(bearer(i % 2 ? org.live : org.test));
      statuses.push(last.status);
    }
    // 30 a minute for the organization, whatever key: the 31st is refused.
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expectError(last!, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
  });
});

describe('monthly quota (429 QUOTA_EXCEEDED) under concurrency', () => {
  it('20 parallel requests of 7 units against 100: 14 succeed, used never passes the limit', async () => {
    const org = await gw.organization('free');
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(body(7)),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(14);
    expect(refused).toHaveLength(6);
    refused.forEach((r) => {
      expectError(r, 429, 'QUOTA_EXCEEDED');
      expect(r.body.error.details.limit).toBe(100);
      expect(r.body.error.details.requested).toBe(7);
      expect(r.body.error.details.used).toBeLessThanOrEqual(100);
    });
    expect(await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).toEqual({
      month: monthOf(gw.clock.now()),
      used: 98,
      limit: 100,
    });
    expect(await gw.prisma.fileRecord.count({ where: { organizationId: org.id } })).toBe(14);
  });
});

describe('idempotency (409)', () => {
  it('same key + same body: same file, counted once, Idempotent-Replayed; different body: IDEMPOTENCY_KEY_REUSED', async () => {
    const org = await gw.organization('pro');
    const b = body(3);
    const first = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Idempotency-Key', 'k-1')
      .send(b);
    expect(first.status).toBe(200);
    // Same data, other key order: the same body.
    const reordered = JSON.parse(
      JSON.stringify({
        declarations: b.declarations,
        declarant: b.declarant,
        type: b.type,
        spec_version: b.spec_version,
      }),
    );
    const again = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Idempotency-Key', 'k-1')
      .send(reordered);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.file_id).toBe(first.body.file_id);
    expect(await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).toMatchObject({ used: 3 });
    const other = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Idempotency-Key', 'k-1')
      .send(body(2));
    expectError(other, 409, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('store: false replays the same content without having kept it', async () => {
    const org = await gw.organization('pro');
    const b = { ...body(2), options: { store: false } };
    const first = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Idempotency-Key', 'nostore')
      .send(b);
    const again = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Idempotency-Key', 'nostore')
      .send(b);
    expect(again.body.file_id).toBe(first.body.file_id);
    expect(again.body.content).toBe(first.body.content);
    const row = await gw.prisma.idempotencyRecord.findFirst({ where: { key: 'nostore' } });
    expect(JSON.stringify(row?.responseBody)).not.toContain('ID_DECLARATION|');
  });

  it('store: false, the gateway gone after the file was recorded and counted: the retry is answered from it, counted once', async () => {
    const org = await gw.organization('pro');
    const b = { ...body(3), options: { store: false } };
    const month = monthOf(gw.clock.now());
    // As if the process died between the file's transaction and the reply's: the reply is never
    // kept and the claim is not dropped (a trigger refuses both, for this key only).
    await gw.prisma.$executeRawUnsafe(`
      CREATE FUNCTION crash_after_file() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF OLD."key" = 'crash' AND (TG_OP = 'DELETE' OR NEW."state"::text = 'COMPLETED') THEN
          RAISE EXCEPTION 'the gateway is gone';
        END IF;
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END $$`);
    await gw.prisma.$executeRawUnsafe(
      `CREATE TRIGGER crash_after_file BEFORE UPDATE OR DELETE ON "idempotency_records"
         FOR EACH ROW EXECUTE FUNCTION crash_after_file()`,
    );
    let first: request.Response;
    try {
      first = await request(gw.http)
        .post('/v1/files/generate')
        .set(bearer(org.live))
        .set('Idempotency-Key', 'crash')
        .send(b);
    } finally {
      await gw.prisma.$executeRawUnsafe('DROP TRIGGER crash_after_file ON "idempotency_records"');
      await gw.prisma.$executeRawUnsafe('DROP FUNCTION crash_after_file()');
    }
    expect(first.status).toBe(500);
    const claim = await gw.prisma.idempotencyRecord.findFirst({ where: { key: 'crash' } });
    expect(claim).toMatchObject({ state: 'IN_PROGRESS', fileId: expect.stringMatching(/^file_/) });
    expect((await gw.stores.usage.getUsage(org.id, month)).used).toBe(3);
    // Within the claim's lease the key is busy; after it, the file it accepted answers the retry.
    expectError(
      await request(gw.http)
        .post('/v1/files/generate')
        .set(bearer(org.live))
        .set('Idempotency-Key', 'crash')
        .send(b),
      409,
      'IDEMPOTENCY_IN_PROGRESS',
    );
    gw.clock.advance((gw.config.queue.waitSeconds + 61) * 1000);
    const retry = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Idempotency-Key', 'crash')
      .send(b);
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.file_id).toBe(claim!.fileId);
    expect(typeof retry.body.content).toBe('string');
    expect(
      createHash('sha256')
        .update(retry.body.content as string)
        .digest('hex'),
    ).toBe(retry.body.sha256);
    expect((await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).used).toBe(3);
  });

  it('10 concurrent identical requests: one file, counted once; the others replay or get IDEMPOTENCY_IN_PROGRESS', async () => {
    const org = await gw.organization('pro');
    const b = body(4);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(gw.http)
          .post('/v1/files/generate')
          .set(bearer(org.live))
          .set('Idempotency-Key', 'burst')
          .send(b),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const busy = results.filter((r) => r.status === 409);
    expect(ok.length + busy.length).toBe(10);
    expect(new Set(ok.map((r) => r.body.file_id)).size).toBe(1);
    busy.forEach((r) => expectError(r, 409, 'IDEMPOTENCY_IN_PROGRESS'));
    expect(await gw.prisma.fileRecord.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).toMatchObject({ used: 4 });
  });

  it('a failed request releases its key: a corrected retry with the same key proceeds', async () => {
    const org = await gw.organization('pro');
    const bad = body(1);
    bad.declarations[0].holders[0].nir = 'x';
    expectError(
      await request(gw.http)
        .post('/v1/files/generate')
        .set(bearer(org.live))
        .set('Idempotency-Key', 'retry')
        .send(bad),
      422,
      'VALIDATION_FAILED',
    );
    const good = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Idempotency-Key', 'retry')
      .send(body(1));
    expect(good.status).toBe(200);
  });
});

describe('dependency failures (503, 500): nothing counted, nothing kept', () => {
  it('INTERNAL_ERROR without a stack trace when storage refuses the object (bucket gone)', async () => {
    const org = await gw.organization('pro');
    const objects = await gw.storage.exists('whatever');
    expect(objects).toBe(false);
    // Remove the bucket under the gateway: the S3 error is not a connectivity problem.
    const { Client } = await import('minio');
    const url = new URL(gw.s3.endpoint);
    const admin = new Client({
      endPoint: url.hostname,
      port: Number(url.port),
      useSSL: false,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      pathStyle: true,
    });
    const names: string[] = [];
    for await (const o of admin.listObjectsV2(gw.config.s3.bucket, '', true))
      names.push((o as { name: string }).name);
    if (names.length) await admin.removeObjects(gw.config.s3.bucket, names);
    await admin.removeBucket(gw.config.s3.bucket);
    try {
      const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(body(2));
      expectError(res, 500, 'INTERNAL_ERROR');
      expect((await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).used).toBe(0);
      // The record is written before any object (one lifecycle): it ends failed, with no object and no units.
      expect(
        await gw.prisma.fileRecord.count({ where: { organizationId: org.id, NOT: { status: 'FAILED' } } }),
      ).toBe(0);
    } finally {
      await gw.storage.ensureBucket();
    }
  });

  it('SERVICE_UNAVAILABLE when the S3 endpoint is down', async () => {
    const org = await gw.organization('pro');
    await gw.s3.close();
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(body(2));
    expectError(res, 503, 'SERVICE_UNAVAILABLE');
    expect((await gw.stores.usage.getUsage(org.id, monthOf(gw.clock.now()))).used).toBe(0);
    expect(
      await gw.prisma.fileRecord.count({ where: { organizationId: org.id, NOT: { status: 'FAILED' } } }),
    ).toBe(0);
    expect(await gw.prisma.fileRecord.count({ where: { organizationId: org.id, units: { not: 0 } } })).toBe(
      0,
    );
  });
});

describe('logs', () => {
  it('no NIR sent in any request of this run appears in what the gateway wrote (its log lines and the process output)', () => {
    // The gateway's JSON lines go to this file's log sink: every request of the run has its access line.
    expect(suiteLogs.entries('access').length).toBeGreaterThan(50);
    const text = `${suiteLogs.lines.join('\n')}\n${output.text()}`;
    for (const nir of NIRS_SEEN) expect(text.includes(nir)).toBe(false);
    expect(text.includes('DUPONT')).toBe(false);
  });
});
