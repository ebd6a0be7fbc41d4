/**
 * The typed client (libs/client, generated from openapi.json) in a full flow against a real gateway
 * and worker: spec, validate, generate with an Idempotency-Key, its replay, download, upload
 * validation, metadata, an asynchronous 202 then polling. No type assertion and no `!` in this file
 * (eslint forbids them here): every answer is typed by the contract and narrowed by checks.
 */
import type { INestApplicationContext } from '@nestjs/common';
import { createPpfileClient, type PpfileClient, type Schemas } from '@ppfile/client';
import { startGateway, type Gateway } from './support/gateway';
import { startWorker, workerConfigFor } from './support/worker';

jest.setTimeout(120_000);

function holders(
  count: number,
  siret?: string,
): Schemas['DeclarationBody']['declarations'][number]['holders'] {
  return Array.from({ length: count }, (_, i) => ({
    unique_id: `CLIENT-${i}`,
    nir: i % 2 === 0 ? '1870975115042' : '2910369123017',
    birth_name: i % 2 === 0 ? 'EXEMPLE' : 'MODELE',
    validity_start: '2026-09-15',
    validity_end: '2028-09-14',
    employer_reference: `RH-${i}`,
    ...(siret ? { employer_siret: siret } : {}),
  }));
}

function body(count: number): Schemas['DeclarationBody'] {
  return {
    type: 'adf',
    declarant: 'employer',
    declarations: [
      {
        id: 'CLIENT-2026-09',
        reference: 'Session client',
        transferable_skills: ['115650', '121885'],
        training: {
          name: 'Sauveteur secouriste du travail',
          start_date: '2026-09-14',
          end_date: '2026-09-15',
          delivery_mode: 'presentiel',
          trainer_qualification: 'FORMATEUR_D_ADULTES_FORMATION_SPECIALISEE',
          certifying: false,
          formacodes: ['42829'],
          nsf_codes: ['344r'],
        },
        holders: holders(count),
      },
    ],
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the typed client (libs/client) against a gateway and a worker', () => {
  let gw: Gateway;
  let worker: INestApplicationContext;
  let ppfile: PpfileClient;

  beforeAll(async () => {
    gw = await startGateway({ queue: { generateThresholdRows: 20 } });
    worker = await startWorker(workerConfigFor(gw));
    await gw.app.listen(0, '127.0.0.1');
    const address = gw.app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const org = await gw.organization('pro');
    ppfile = createPpfileClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: org.live });
  });

  afterAll(async () => {
    await worker?.close();
    await gw?.close();
  });

  it('reads the format versions and a reference list', async () => {
    const versions = await ppfile.GET('/v1/spec');
    expect(versions.data?.current).toBe('2026-02');
    const rome = await ppfile.GET('/v1/spec/{version}/references/{list}', {
      params: { path: { version: '2026-02', list: 'rome' }, query: { q: 'secours', limit: 5 } },
    });
    expect(rome.data?.items.length).toBeGreaterThan(0);
    const unknown = await ppfile.GET('/v1/spec/{version}', { params: { path: { version: '1999-01' } } });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error?.error.code).toBe('UNSUPPORTED_SPEC_VERSION');
    // details are typed per status, told apart by the code: read without a cast.
    const refusal = unknown.error?.error;
    if (refusal?.code !== 'UNSUPPORTED_SPEC_VERSION') throw new Error('expected UNSUPPORTED_SPEC_VERSION');
    expect(refusal.details.supported).toEqual(['2026-02']);
  });

  it('validates, generates with an Idempotency-Key, replays, downloads, reads the metadata, validates the file', async () => {
    const checked = await ppfile.POST('/v1/declarations/validate', { body: body(3) });
    expect(checked.data?.valid).toBe(true);
    expect(checked.data?.normalizations.some((n) => n.rule === 'ENUM_UPPERCASED')).toBe(true);

    const options = { body: body(3), params: { header: { 'Idempotency-Key': 'client-flow-1' } } };
    const first = await ppfile.POST('/v1/files/generate', options);
    const file = first.data;
    if (!file || !('success' in file)) throw new Error(`generate answered ${first.response.status}`);
    expect(file).toMatchObject({ success: true, rows: 3, stored: true, mode: 'live' });
    const replay = await ppfile.POST('/v1/files/generate', options);
    expect(replay.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.data && 'file_id' in replay.data ? replay.data.file_id : null).toBe(file.file_id);

    const csv = await ppfile.GET('/v1/files/{id}/download', {
      params: { path: { id: file.file_id } },
      parseAs: 'text',
    });
    expect(csv.response.headers.get('ETag')).toBe(`"${file.sha256}"`);
    expect(typeof csv.data === 'string' && csv.data.split('\r\n').length).toBe(5); // header + 3 rows + final CRLF

    const metadata = await ppfile.GET('/v1/files/{id}', { params: { path: { id: file.file_id } } });
    expect(metadata.data).toMatchObject({ file_id: file.file_id, status: 'available', rows: 3, type: 'adf' });

    const content = typeof csv.data === 'string' ? csv.data : '';
    const upload = await ppfile.POST('/v1/files/validate', {
      body: { file: content, type: 'adf', declarant: 'employer' },
      bodySerializer(fields) {
        const form = new FormData();
        form.append('file', new Blob([fields.file], { type: 'text/csv' }), file.filename);
        form.append('type', fields.type);
        form.append('declarant', fields.declarant);
        return form;
      },
    });
    expect(upload.data).toMatchObject({ valid: true, file_rejected: false, rows_total: 3 });

    const missing = await ppfile.GET('/v1/files/{id}', { params: { path: { id: 'file_doesnotexist' } } });
    expect(missing.error?.error.code).toBe('NOT_FOUND');

    const badKey = await ppfile.POST('/v1/files/generate', {
      body: body(1),
      params: { header: { 'Idempotency-Key': 'k'.repeat(300) } },
    });
    const invalid = badKey.error?.error;
    if (invalid?.code !== 'INVALID_REQUEST')
      throw new Error(`expected INVALID_REQUEST, got ${badKey.response.status}`);
    expect(invalid.details.fields?.map((f) => f.field)).toEqual(['Idempotency-Key']);
    expect(invalid.details.field_count).toBe(1);
  });

  it('asks for an asynchronous answer: 202 with Location, then polls until available', async () => {
    const accepted = await ppfile.POST('/v1/files/generate', {
      body: body(40),
      params: { header: { Prefer: 'respond-async' } },
    });
    expect(accepted.response.status).toBe(202);
    const location = accepted.response.headers.get('Location');
    const data = accepted.data;
    if (!data || !('status' in data)) throw new Error(`expected 202, got ${accepted.response.status}`);
    expect(location).toBe(`/v1/files/${data.file_id}`);
    let status: string = data.status;
    for (let i = 0; i < 100 && status === 'processing'; i++) {
      await sleep(100);
      const polled = await ppfile.GET('/v1/files/{id}', { params: { path: { id: data.file_id } } });
      status = polled.data?.status ?? 'unknown';
    }
    expect(status).toBe('available');
  });
});
