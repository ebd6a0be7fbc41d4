/**
 * The contract check itself (test/support/contract.ts) must be able to fail: every e2e file's answers
 * go through it, and a checker that stopped reporting would let every suite pass. Known-bad answers,
 * built from a real one, each with the difference it must name.
 */
import { Contract, type Exchange } from './support/contract';

const contract = new Contract();
const json = (body: unknown) => Buffer.from(JSON.stringify(body));
const HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'x-request-id': 'req_0123456789abcdef',
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '42',
};
const notFound = (
  body: unknown = { error: { code: 'NOT_FOUND', message: 'm', details: {}, request_id: 'req_1' } },
) =>
  ({
    method: 'GET',
    url: '/v1/files/file_x',
    status: 404,
    headers: { ...HEADERS },
    body: json(body),
  }) as Exchange;

describe('the contract check names the operation and the difference', () => {
  it('passes a documented answer', () => {
    expect(contract.check(notFound())).toEqual([]);
  });

  it.each<[string, (e: Exchange) => Exchange, RegExp]>([
    [
      'an undocumented status',
      (e) => ({ ...e, status: 418 }),
      /^getFile \(GET \/v1\/files\/\{id\}\) answered 418: status not documented/,
    ],
    [
      'a required header missing',
      (e) => ({ ...e, headers: { ...e.headers, 'x-request-id': undefined } }),
      /required header X-Request-Id missing/,
    ],
    [
      'a header of the wrong shape',
      (e) => ({ ...e, headers: { ...e.headers, 'x-ratelimit-remaining': 'many' } }),
      /header X-RateLimit-Remaining "many"/,
    ],
    [
      'another content type',
      (e) => ({ ...e, headers: { ...e.headers, 'content-type': 'text/html' } }),
      /content type "text\/html", documented: application\/json/,
    ],
    ['a body that is not JSON', (e) => ({ ...e, body: Buffer.from('<html>') }), /body is not JSON/],
    [
      'a code of another status',
      () => notFound({ error: { code: 'FILE_EXPIRED', message: 'm', details: {}, request_id: 'r' } }),
      /\/error\/code must be equal to one of the allowed values/,
    ],
    [
      'a field the schema does not know',
      () =>
        notFound({ error: { code: 'NOT_FOUND', message: 'm', details: {}, request_id: 'r', stack: 'x' } }),
      /must NOT have additional properties/,
    ],
    [
      'a details key the status does not document',
      () => notFound({ error: { code: 'NOT_FOUND', message: 'm', details: { limit: 1 }, request_id: 'r' } }),
      /\/error\/details must NOT have additional properties/,
    ],
    [
      'a header the response does not document (X-Powered-By)',
      (e) => ({ ...e, headers: { ...e.headers, 'x-powered-by': 'Express' } }),
      /answered 404: header x-powered-by not documented for this response/,
    ],
  ])('refuses %s', (_what, change, expected) => {
    const problems = contract.check(change(notFound()));
    expect(problems.join('\n')).toMatch(expected);
  });

  it('refuses an ETag on a download that answered 404 (only its 200 and 304 document one)', () => {
    const download = (status: number, etag: string): Exchange => ({
      method: 'GET',
      url: '/v1/files/file_x/download',
      status,
      headers: { ...HEADERS, etag },
      body: json({ error: { code: 'FILE_NOT_STORED', message: 'm', details: {}, request_id: 'req_1' } }),
    });
    // express's automatic weak ETag of a JSON body, which the gateway once sent on its errors.
    expect(contract.check(download(404, 'W/"7a-Yx0aQ2Q8vC1b2d3e4f5g6h7i8j9"'))).toEqual([
      'downloadFile (GET /v1/files/{id}/download) answered 404: header etag not documented for this response',
    ]);
    // The file's own ETag on a 304 is documented.
    expect(contract.check({ ...download(304, `"${'0'.repeat(64)}"`), body: Buffer.alloc(0) })).toEqual([]);
  });
});
