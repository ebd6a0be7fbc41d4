/**
 * The contract as a third-party proxy reads it: Prism (`prism proxy openapi.json <gateway>`), which
 * many API users put in front of a service to check their requests, must be able to compile every
 * request schema. It could not compile the declaration body's (optional enumerations spelt as
 * `nullable` with a null in their enum: its validator added a second null, "duplicate items"), and
 * then checked no declaration body at all. Against a real gateway, through Prism in its own process.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { startGateway, type Gateway } from './support/gateway';
import { freePort, spawnUntilReady, stopGroup } from './support/stack';

const ROOT = path.join(__dirname, '..');
const PRISM = path.join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let gw: Gateway;
let prism: Awaited<ReturnType<typeof spawnUntilReady>> | undefined;
let base = '';
let key = '';

beforeAll(async () => {
  gw = await startGateway();
  await gw.app.listen(0, '127.0.0.1');
  const upstream = `http://127.0.0.1:${(gw.app.getHttpServer().address() as AddressInfo).port}`;
  const port = await freePort();
  prism = await spawnUntilReady(
    process.execPath,
    [
      PRISM,
      'proxy',
      path.join(ROOT, 'openapi.json'),
      upstream,
      // A request that breaks the contract is answered by Prism (422), not passed on.
      '--errors',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    /Prism is listening/,
    { cwd: ROOT, timeoutMs: 60_000 },
  );
  base = `http://127.0.0.1:${port}`;
  key = (await gw.organization('pro')).live;
}, 90_000);

afterAll(async () => {
  await stopGroup(prism?.child);
  await gw?.close();
});

const validate = (body: unknown) =>
  fetch(`${base}/v1/declarations/validate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const example = () =>
  JSON.parse(
    readFileSync(path.join(ROOT, 'docs', 'examples', 'adf-training-organization.json'), 'utf8'),
  ) as Json;

describe('prism proxy in front of the gateway', () => {
  it('refuses a malformed declaration body itself (422), naming what is wrong', async () => {
    const res = await validate({ type: 'adf', declarant: 'nobody', declarations: 'oops' });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await res.json()) as Json;
    const where = (problem.validation as Json[]).map((v) => v.location.join('.'));
    expect(where).toEqual(expect.arrayContaining(['body.declarant', 'body.declarations']));
  });

  it('refuses an optional enumeration out of its values, and a field the server does not know', async () => {
    const badVersion = await validate({ ...example(), spec_version: '1999-01' });
    expect(badVersion.status).toBe(422);
    const unknown = await validate({ ...example(), unknown_field: 1 });
    expect(unknown.status).toBe(422);
  });

  it('passes a valid body on, null in its optional enumerations included, and the gateway answers it', async () => {
    const res = await validate({ ...example(), spec_version: null, options: { formula_policy: null } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(((await res.json()) as Json).valid).toBe(true);
  });
});
