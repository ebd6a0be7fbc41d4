import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ReferenceDirectory } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION } from '@ppfile/rules';
import { renderFailure, WebBundleMissing } from '../dashboard-errors';
import { acceptedEncoding } from '../static.controller';
import { findWebBundleDir, loadWebBundle, referenceListsAsset, WebAssets, webAssetUrls } from './web-assets';

const references = new ReferenceDirectory(null);
const lists = referenceListsAsset(references);

function bundleDir(manifest: Record<string, string>, files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'ppfile-web-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  for (const f of files) writeFileSync(join(dir, f), `/* ${f} */`);
  return dir;
}

const MANIFEST = {
  'engine-worker.js': 'engine-worker.0a1b2c3d.js',
  'try.js': 'try.0a1b2c3d.js',
  'build.js': 'build.0a1b2c3d.js',
  'build.css': 'build.0a1b2c3d.css',
};

describe('the front end bundle (dist/dashboard-web)', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('is looked for beside the package.json above the code', () => {
    const dir = findWebBundleDir(__dirname)!;
    expect(dir.endsWith(join('dist', 'dashboard-web'))).toBe(true);
    expect(__dirname.startsWith(dirname(dirname(dir)))).toBe(true);
  });

  it('serves the files its manifest names, under their hashed names', () => {
    const dir = bundleDir(MANIFEST, Object.values(MANIFEST));
    dirs.push(dir);
    const web = new WebAssets(loadWebBundle(dir), lists);
    expect(web.built).toBe(true);
    expect(webAssetUrls(web)).toEqual({
      worker: '/dashboard/static/engine-worker.0a1b2c3d.js',
      lists: lists.path,
      buildJs: '/dashboard/static/build.0a1b2c3d.js',
      buildCss: '/dashboard/static/build.0a1b2c3d.css',
      tryJs: '/dashboard/static/try.0a1b2c3d.js',
    });
    const css = web.at('/dashboard/static/build.0a1b2c3d.css')!;
    expect(css.contentType).toBe('text/css; charset=utf-8');
    expect(css.body.toString()).toBe('/* build.0a1b2c3d.css */');
    expect(web.at('/dashboard/static/manifest.json')).toBeUndefined();
  });

  it('missing: the pages that need it are 503 (WebBundleMissing); the lists are still served', () => {
    const empty = mkdtempSync(join(tmpdir(), 'ppfile-web-'));
    dirs.push(empty);
    expect(loadWebBundle(null)).toBeNull();
    expect(loadWebBundle(join(empty, 'nothing'))).toBeNull();
    const web = new WebAssets(loadWebBundle(empty), lists);
    expect(web.built).toBe(false);
    expect(() => webAssetUrls(web)).toThrow(WebBundleMissing);
    expect(web.at(lists.path)).toBe(lists);
  });

  it('refuses to start on a broken build: a named file missing, or a name that leaves the folder', () => {
    const missing = bundleDir(MANIFEST, ['try.0a1b2c3d.js']);
    const climbing = bundleDir({ ...MANIFEST, 'build.js': '../build.0a1b2c3d.js' }, Object.values(MANIFEST));
    dirs.push(missing, climbing);
    expect(() => loadWebBundle(missing)).toThrow(/ENOENT/);
    expect(() => loadWebBundle(climbing)).toThrow(/build\.js/);
  });
});

describe('the reference lists asset', () => {
  const body = JSON.parse(lists.body.toString('utf8')) as {
    spec_version: string;
    lists: Record<string, { source: string; version: string; complete: boolean; codes: string }>;
  };

  it('holds every list of the current version, codes only, with source, version and completeness', () => {
    const shipped = references.lists(CURRENT_SPEC_VERSION);
    expect(body.spec_version).toBe(CURRENT_SPEC_VERSION);
    expect(Object.keys(body.lists)).toEqual(['rome', 'formacode', 'nsf', 'rs']);
    for (const name of ['rome', 'formacode', 'nsf', 'rs'] as const) {
      const list = body.lists[name]!;
      expect(list).toEqual({
        source: shipped[name].source,
        version: shipped[name].version,
        complete: shipped[name].complete,
        codes: [...shipped[name].entries.keys()].join('\n'),
      });
    }
    expect(body.lists.rome!.codes.split('\n')).toHaveLength(shipped.rome.entries.size);
    // No label: a label of the ROME list is not in the asset.
    const [code, label] = [...shipped.rome.entries][0]!;
    expect(lists.body.toString('utf8')).toContain(code);
    expect(lists.body.toString('utf8')).not.toContain(label);
  });

  it('is named by spec version and hash, and precompressed (gzip, brotli) to the same bytes', () => {
    expect(lists.path).toMatch(
      new RegExp(`^/dashboard/static/reference-lists-${CURRENT_SPEC_VERSION}\\.[0-9a-f]{12}\\.json$`),
    );
    expect(referenceListsAsset(references).path).toBe(lists.path);
    expect(gunzipSync(lists.gzip!).equals(lists.body)).toBe(true);
    expect(brotliDecompressSync(lists.br!).equals(lists.body)).toBe(true);
    expect(lists.br!.length).toBeLessThan(lists.body.length / 3);
  });

  it('is answered in the encoding the browser takes', () => {
    expect(acceptedEncoding('gzip, deflate, br', lists)).toBe('br');
    expect(acceptedEncoding('br;q=0, gzip', lists)).toBe('gzip');
    expect(acceptedEncoding('identity', lists)).toBeNull();
    expect(acceptedEncoding(undefined, lists)).toBeNull();
    expect(acceptedEncoding('br', { ...lists, br: undefined })).toBeNull();
  });
});

describe('a page of the front end when the bundle was not built', () => {
  it('is a 503 page that says to run npm run build:web', () => {
    const sent: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
    const res = {
      headersSent: false,
      locals: {} as Record<string, unknown>,
      status(code: number) {
        sent.status = code;
        return this;
      },
      setHeader(name: string, value: string) {
        sent.headers[name.toLowerCase()] = value;
      },
      send(body: string) {
        sent.body = body;
      },
    };
    const req = {
      method: 'GET',
      originalUrl: '/dashboard/build',
      url: '/dashboard/build',
      header: () => undefined,
      dashboard: { lang: 'fr', cookies: new Map(), session: null, sessionEnded: false },
    };
    renderFailure(req as never, res as never, new WebBundleMissing());
    expect(sent.status).toBe(503);
    expect(res.locals.errorCode).toBe('SERVICE_UNAVAILABLE');
    expect(sent.body).toContain('npm run build:web');
    expect(sent.body).toContain('Page non compilée');
  });
});
