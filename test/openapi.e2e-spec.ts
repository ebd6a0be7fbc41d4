/**
 * openapi.json is the contract (issue: the OpenAPI document is the contract): it is what the code
 * builds (npm run openapi), libs/client's types are what openapi-typescript makes of it, Spectral
 * (oas) and Redocly (recommended) find nothing in it, the gateway serves it, and every request
 * example in it succeeds when sent. (Every answer of the e2e suites is checked against it after
 * each file: support/contract.ts.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { buildOpenApiDocument, SHEET_ISSUE_CODES, SHEET_MATCHES } from '@ppfile/contract';
import { SHEET_ISSUE_CODES as SHEETS_ISSUE_CODES, type MatchHow } from '@ppfile/sheets';
import { startGateway, type Gateway } from './support/gateway';

jest.setTimeout(120_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = path.resolve(__dirname, '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('openapi.json', () => {
  it("lists libs/sheets' own words for an import: its issue codes and how a header matched", () => {
    expect([...SHEET_ISSUE_CODES]).toEqual([...SHEETS_ISSUE_CODES]);
    // Every MatchHow, and nothing else (a new one fails to compile here).
    const how: Record<MatchHow, true> = { name: true, field: true, label: true, synonym: true, given: true };
    expect([...SHEET_MATCHES].sort()).toEqual(Object.keys(how).sort());
  });

  it('is what the code builds (run `npm run openapi` after changing the API)', () => {
    expect(JSON.parse(read('openapi.json'))).toEqual(buildOpenApiDocument());
  });

  it("libs/client's types are what openapi-typescript makes of it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ppfile-client-'));
    try {
      const out = path.join(dir, 'schema.ts');
      const gen = spawnSync(
        bin('openapi-typescript'),
        ['openapi.json', '--default-non-nullable', 'false', '--output', out],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(gen.status).toBe(0);
      const formatted = spawnSync(bin('prettier'), ['--stdin-filepath', 'libs/client/src/schema.ts'], {
        cwd: ROOT,
        input: readFileSync(out, 'utf8'),
        encoding: 'utf8',
      });
      expect(formatted.status).toBe(0);
      expect(formatted.stdout === read('libs/client/src/schema.ts')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Spectral (oas ruleset) reports nothing, not even a hint', () => {
    const r = spawnSync(bin('spectral'), ['lint', 'openapi.json', '--format', 'json', '--quiet'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(JSON.parse(r.stdout || '[]')).toEqual([]);
  });

  it('Redocly (recommended rules) reports no error and no warning beyond .redocly.lint-ignore.yaml', () => {
    const r = spawnSync(bin('redocly'), ['lint', 'openapi.json', '--format', 'json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const report = JSON.parse(r.stdout) as {
      totals: { errors: number; warnings: number; ignored: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(r.status).toBe(0);
  });
});

describe('the gateway serves the contract', () => {
  let gw: Gateway;
  let key: string;

  beforeAll(async () => {
    gw = await startGateway();
    key = (await gw.organization('pro')).live;
  });

  afterAll(async () => {
    await gw?.close();
  });

  it('/docs-json is the document, with this gateway as its server; /docs is Swagger UI', async () => {
    const json = await request(gw.http).get('/docs-json');
    expect(json.status).toBe(200);
    expect(json.body).toEqual(buildOpenApiDocument({ serverUrl: gw.config.publicBaseUrl }));
    const ui = await request(gw.http).get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
  });

  it('every request example of the document succeeds when sent', async () => {
    const doc = buildOpenApiDocument() as Json;
    let sent = 0;
    for (const [route, methods] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(methods as Json)) {
        const examples = (op.requestBody?.content?.['application/json']?.examples ?? {}) as Json;
        for (const [name, example] of Object.entries(examples)) {
          const agent = request(gw.http);
          const res = await agent[method as 'post'](route)
            .set('Authorization', `Bearer ${key}`)
            .send(example.value);
          expect({
            operation: op.operationId,
            example: name,
            status: res.status,
            valid: res.body.valid ?? res.body.success,
          }).toEqual({
            operation: op.operationId,
            example: name,
            status: 200,
            valid: true,
          });
          sent++;
        }
      }
    }
    expect(sent).toBe(4);
  });
});
