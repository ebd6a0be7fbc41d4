import { describe, expect, it } from '@jest/globals';
import type { DeclarationBody } from '../engine/protocol';
import { changedMapping, mappingOf, sameMapping } from './mapping';
import {
  ServerError,
  fileStatusUrl,
  generateFile,
  loadMapping,
  retryAfterSeconds,
  saveMapping,
  type Fetch,
} from './server';

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch answering from a list, recording what was asked. */
function fakeFetch(...answers: Response[]): { fetch: Fetch; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: (url, init = {}) => {
      calls.push({ url, init });
      const answer = answers.shift();
      return answer ? Promise.resolve(answer) : Promise.reject(new Error('no more answers'));
    },
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const body: DeclarationBody = {
  type: 'adf',
  declarant: 'employer',
  spec_version: '2026-02',
  declarations: [{ id: 'D1', holders: [{ nir: '2550814168025' }] }],
};
const kind = { type: 'adf', declarant: 'employer' } as const;
const settings = (fetch: Fetch) => ({
  fetch,
  generateUrl: '/dashboard/build/generate',
  csrf: 'tok',
  asyncAboveRows: 2,
  wait: () => Promise.resolve(),
});
const headersOf = (call: Call) => call.init.headers as Record<string, string>;

describe('generateFile (the one request that carries the data)', () => {
  it('posts the body (as POST /v1/files/generate takes it) with the CSRF token and the idempotency key, synchronously for a small body', async () => {
    const file = { file_id: 'file_1', status: 'available', download_url: '/dashboard/files/file_1/download' };
    const { fetch, calls } = fakeFetch(json(200, file));
    await expect(generateFile(body, 1, 'key-1', settings(fetch))).resolves.toEqual(file);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/dashboard/build/generate');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual(body);
    expect(headersOf(calls[0]!)).toMatchObject({ 'X-CSRF-Token': 'tok', 'Idempotency-Key': 'key-1' });
    expect(headersOf(calls[0]!).Prefer).toBeUndefined();
  });

  it('sends strict_references: false in the options only when the page unchecked strict references', async () => {
    const file = { file_id: 'file_3', status: 'available' };
    const { fetch, calls } = fakeFetch(json(200, file), json(200, file));
    await generateFile(body, 1, 'k', settings(fetch), false);
    await generateFile(body, 1, 'k', settings(fetch), true);
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({
      ...body,
      options: { strict_references: false },
    });
    expect(JSON.parse(calls[1]!.init.body as string)).toEqual(body);
  });

  it('asks for the asynchronous way above asyncAboveRows and polls the file until it is ready', async () => {
    const { fetch, calls } = fakeFetch(
      json(202, { file_id: 'file_2', status: 'processing' }),
      json(200, { file_id: 'file_2', status: 'processing' }),
      json(200, { file_id: 'file_2', status: 'available', filename: 'f.csv', download_url: '/d' }),
    );
    const file = await generateFile(body, 3, 'key-2', settings(fetch));
    expect(file).toMatchObject({
      file_id: 'file_2',
      status: 'available',
      filename: 'f.csv',
      download_url: '/d',
    });
    expect(headersOf(calls[0]!).Prefer).toBe('respond-async');
    expect(calls.slice(1).map((c) => c.url)).toEqual([
      '/dashboard/build/files/file_2',
      '/dashboard/build/files/file_2',
    ]);
    // Polls carry nothing of the file.
    expect(calls.slice(1).every((c) => c.init.body === undefined)).toBe(true);
  });

  it('rejects with the API error of a refusal, and with the failure of a failed file', async () => {
    const refused = fakeFetch(
      json(429, { error: { code: 'QUOTA_EXCEEDED', message: 'Quota', details: { used: 1 } } }),
    );
    await expect(generateFile(body, 1, 'k', settings(refused.fetch))).rejects.toMatchObject({
      status: 429,
      code: 'QUOTA_EXCEEDED',
      message: 'Quota',
      details: { used: 1 },
    });
    const failed = fakeFetch(
      json(202, { file_id: 'file_3', status: 'processing' }),
      json(200, { status: 'failed', error: { error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } } }),
    );
    const error = await generateFile(body, 9, 'k', settings(failed.fetch)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down' });
  });

  it('passes a failed file’s error through with its details and the status of its code', async () => {
    const details = { error_count: 1, errors: [{ code: 'NIR_INVALID' }] };
    const failed = fakeFetch(
      json(202, { file_id: 'file_4', status: 'processing' }),
      json(200, {
        status: 'failed',
        error: { error: { code: 'VALIDATION_FAILED', message: 'Invalid', details } },
      }),
    );
    await expect(generateFile(body, 9, 'k', settings(failed.fetch))).rejects.toMatchObject({
      status: 422,
      code: 'VALIDATION_FAILED',
      message: 'Invalid',
      details,
    });
  });

  it('reads Retry-After, and leaves an empty message empty (the page words it from the status)', async () => {
    const limited = fakeFetch(new Response('', { status: 429, headers: { 'Retry-After': '17' } }));
    await expect(generateFile(body, 1, 'k', settings(limited.fetch))).rejects.toMatchObject({
      status: 429,
      code: 'HTTP_429',
      message: '',
      retryAfter: 17,
    });
    expect(retryAfterSeconds('Thu, 01 Jan 1970 00:00:30 GMT', 10_000)).toBe(20);
    expect(retryAfterSeconds(null)).toBeUndefined();
  });

  it('retries a poll lost on the network or to a passing 503, waiting longer each time', async () => {
    const waits: number[] = [];
    const answers: Array<Response | Error> = [
      json(202, { file_id: 'file_5', status: 'processing' }),
      new TypeError('Failed to fetch'),
      json(503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } }),
      json(200, { file_id: 'file_5', status: 'available', download_url: '/d' }),
    ];
    const fetch: Fetch = () => {
      const answer = answers.shift()!;
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    };
    const file = await generateFile(body, 9, 'k', {
      ...settings(fetch),
      wait: (ms) => (waits.push(ms), Promise.resolve()),
    });
    expect(file).toMatchObject({ status: 'available' });
    expect(waits).toEqual([500, 1000, 2000]);
  });

  it('stops polling after the overall limit and resolves with the file still processing', async () => {
    let clock = 0;
    const processing = () => json(200, { file_id: 'file_6', status: 'processing' });
    const { fetch, calls } = fakeFetch(
      json(202, { file_id: 'file_6', status: 'processing' }),
      ...Array.from({ length: 50 }, processing),
    );
    const file = await generateFile(body, 9, 'k', {
      ...settings(fetch),
      now: () => clock,
      pollLimitMs: 10_000,
      wait: (ms) => ((clock += ms), Promise.resolve()),
    });
    expect(file).toMatchObject({ file_id: 'file_6', status: 'processing' });
    expect(calls.length).toBeLessThan(12);
  });

  it('finds the status route beside the generate route', () => {
    expect(fileStatusUrl('/dashboard/build/generate', 'file_a/b')).toBe('/dashboard/build/files/file_a%2Fb');
  });
});

describe('saved mappings', () => {
  it('loads the mapping of a kind', async () => {
    const { fetch, calls } = fakeFetch(json(200, { mapping: { 'N° sécu': 'NIR' } }));
    await expect(loadMapping(fetch, '/m', kind)).resolves.toEqual({ 'N° sécu': 'NIR' });
    expect(calls[0]!.url).toBe('/m?type=adf&declarant=employer');
  });

  it('saves header texts and column names only, with the CSRF token', async () => {
    const { fetch, calls } = fakeFetch(new Response(null, { status: 204 }));
    await saveMapping(fetch, '/m', 'tok', kind, { 'N° sécu': 'NIR', Commentaire: null });
    expect(calls[0]!.init.method).toBe('PUT');
    expect(headersOf(calls[0]!)['X-CSRF-Token']).toBe('tok');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({
      mapping: { 'N° sécu': 'NIR', Commentaire: null },
    });
  });

  it('makes the import form’s mapping of an import’s answer (an unrecognised header ignored)', () => {
    const mapping = mappingOf({
      mapping: [{ header: 'N° sécu', column: 'NIR', cell: 'D1', how: 'synonym' }],
      unmapped_headers: ['Commentaire'],
    } as Parameters<typeof mappingOf>[0]);
    expect(mapping).toEqual({ 'N° sécu': 'NIR', Commentaire: null });
    expect(sameMapping(mapping, { Commentaire: null, 'N° sécu': 'NIR' })).toBe(true);
    expect(sameMapping(mapping, { Commentaire: 'NOM_TITULAIRE', 'N° sécu': 'NIR' })).toBe(false);
  });
});

describe('changedMapping (what a new import is given)', () => {
  it('keeps what was given and adds the headers changed since, not those left as detected', () => {
    const result = {
      mapping: [
        { header: 'N° sécu', column: 'NIR', cell: 'D1', how: 'synonym' },
        { header: 'Nom', column: 'NOM_TITULAIRE', cell: 'E1', how: 'given' },
      ],
      unmapped_headers: ['Commentaire'],
    } as Parameters<typeof mappingOf>[0];
    const draft = { 'N° sécu': 'NIR', Nom: 'NOM_TITULAIRE', Commentaire: 'REFERENCE_EMPLOYEUR' };
    expect(changedMapping(draft, result, { Nom: 'NOM_TITULAIRE', Ancien: null })).toEqual({
      Nom: 'NOM_TITULAIRE',
      Ancien: null,
      Commentaire: 'REFERENCE_EMPLOYEUR',
    });
    // A header set to "ignore" stays ignored in the next import.
    expect(changedMapping({ ...draft, 'N° sécu': null }, result, {})).toMatchObject({ 'N° sécu': null });
  });
});
