/**
 * Issue 32 (4) over HTTP: POST /v1/files/fix and POST /v1/declarations/import of an official CSV in
 * UTF-8 whose one name was pasted from another program in Windows-1252. The fix once answered the
 * whole file re-read as Windows-1252 — every accented name mojibake — and `valid: true`; the import
 * made a body of those names. Now the fix answers as validate does (INVALID_ENCODING on the line, no
 * content) and the import refuses the file (400 UNREADABLE_FILE, `mixed_encoding`, the message naming
 * the line); a file in one encoding throughout is read as before. Against the machine's PostgreSQL
 * and Redis, as test/gateway.e2e-spec.ts (its answers are checked against openapi.json after the file).
 */
import request from 'supertest';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { startGateway, type Gateway } from './support/gateway';

let gw: Gateway;
let key = '';

beforeAll(async () => {
  gw = await startGateway();
  key = (await gw.organization('pro')).live;
}, 60_000);
afterAll(async () => {
  await gw?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const bearer = () => ({ Authorization: `Bearer ${key}` });
const KIND = { type: 'adf', declarant: 'employer' };

const NAMES = ['HÉLÈNE-ŒUVRE', 'BÉRANGER', 'NOËL'];
/** Latin-1 text as Windows-1252 bytes (É C9, Ë CB…). */
const latin = (text: string): Buffer => Buffer.from(text, 'latin1');

/** The official file (UTF-8) of three holders named NAMES. */
async function officialCsv(): Promise<string> {
  const b = validBody('adf', 'employer', 3) as Json;
  b.declarations[0].holders.forEach((h: Json, i: number) => (h.birth_name = NAMES[i]));
  const gen = await request(gw.http)
    .post('/v1/files/generate')
    .set(bearer())
    .send({ ...b, options: { store: false } });
  expect(gen.status).toBe(200);
  return gen.body.content as string;
}

/** The official file with its third holder's name (line 4) pasted as Windows-1252 bytes. */
async function mixedCsv(): Promise<Buffer> {
  const text = await officialCsv();
  const at = text.lastIndexOf(NAMES[2]!);
  return Buffer.concat([
    Buffer.from(text.slice(0, at)),
    latin(NAMES[2]!),
    Buffer.from(text.slice(at + NAMES[2]!.length)),
  ]);
}

const post = (path: string, bytes: Buffer, lang = 'en') =>
  request(gw.http)
    .post(path)
    .set(bearer())
    .set('Accept-Language', lang)
    .field('type', KIND.type)
    .field('declarant', KIND.declarant)
    .attach('file', bytes, 'sessions.csv');

describe('a CSV whose bytes mix UTF-8 and Windows-1252', () => {
  it('POST /v1/files/fix: no content, no change, INVALID_ENCODING on line 4, no name in the answer', async () => {
    const res = await post('/v1/files/fix', await mixedCsv());
    expect(res.status).toBe(200);
    expect(res.body.content).toBeUndefined();
    expect(res.body.change_count).toBe(0);
    expect(res.body.validation).toMatchObject({ valid: false, file_rejected: true, error_count: 1 });
    expect(res.body.validation.errors).toEqual([
      expect.objectContaining({ row: 4, column: null, code: 'INVALID_ENCODING' }),
    ]);
    for (const text of [...NAMES, 'HÃ']) expect(res.text).not.toContain(text);
  });

  it('POST /v1/declarations/import: 400 UNREADABLE_FILE mixed_encoding, the line named (en, fr)', async () => {
    const bytes = await mixedCsv();
    const res = await post('/v1/declarations/import', bytes);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'UNREADABLE_FILE', details: { reason: 'mixed_encoding' } });
    expect(res.body.error.message).toContain('line 4 holds bytes that are not UTF-8');
    const fr = await post('/v1/declarations/import', bytes, 'fr');
    expect(fr.status).toBe(400);
    expect(fr.body.error.message).toContain('la ligne 4 contient des octets');
    for (const text of [...NAMES, 'HÃ']) expect(res.text + fr.text).not.toContain(text);
  });

  it('the same file in UTF-8 throughout: fixed as it is and imported, every name itself', async () => {
    const text = await officialCsv();
    const fixed = await post('/v1/files/fix', Buffer.from(text));
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ content: text, change_count: 0, validation: { valid: true } });
    const imported = await post('/v1/declarations/import', Buffer.from(text));
    expect(imported.status).toBe(200);
    expect(imported.body.body.declarations[0].holders.map((h: Json) => h.birth_name)).toEqual(NAMES);
  });

  it('a file in Windows-1252 throughout: re-encoded by the fix and imported, every name itself', async () => {
    const text = (await officialCsv()).replace('Œ', 'OE');
    const names = ['HÉLÈNE-OEUVRE', ...NAMES.slice(1)];
    const fixed = await post('/v1/files/fix', latin(text));
    expect(fixed.status).toBe(200);
    expect(fixed.body.content).toBe(text);
    expect(fixed.body.changes).toEqual([{ row: null, column: null, rule: 'REENCODED_AS_UTF8' }]);
    const imported = await post('/v1/declarations/import', latin(text));
    expect(imported.status).toBe(200);
    expect(imported.body.body.declarations[0].holders.map((h: Json) => h.birth_name)).toEqual(names);
  });
});
