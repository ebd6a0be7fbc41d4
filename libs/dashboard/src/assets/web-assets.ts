import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ReferenceDirectory } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION, REFERENCE_LIST_NAMES } from '@ppfile/rules';
import type { Asset } from './assets';

/*
 * A minimal version written by the engine helper for Try it (issue 36), with the names and shape of
 * the server helper's web-assets.ts (which compresses and answers 503 pages): the lead keeps theirs.
 */

export const WEB_BUNDLE_DIR = join('dist', 'dashboard-web');
export const WEB_MANIFEST = 'manifest.json';
export const WEB_LOGICAL_NAMES = ['engine-worker.js', 'try.js', 'build.js', 'build.css'] as const;
export type WebLogicalName = (typeof WEB_LOGICAL_NAMES)[number];

export interface WebAssetUrls {
  worker: string;
  lists: string;
  buildJs: string;
  buildCss: string;
  tryJs: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
};

const BUNDLE_FILE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.(js|css)$/;

export function findWebBundleDir(from: string = __dirname): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, WEB_BUNDLE_DIR);
    if (dirname(dir) === dir) return null;
  }
}

export function assetOf(path: string, contentType: string, body: Buffer): Asset {
  const hash = createHash('sha256').update(body).digest('hex');
  return { path, contentType, body, etag: `"${hash.slice(0, 32)}"` };
}

export function loadWebBundle(dir: string | null): Map<WebLogicalName, Asset> | null {
  if (dir === null || !existsSync(join(dir, WEB_MANIFEST))) return null;
  const manifest = JSON.parse(readFileSync(join(dir, WEB_MANIFEST), 'utf8')) as Record<string, unknown>;
  const bundle = new Map<WebLogicalName, Asset>();
  for (const logical of WEB_LOGICAL_NAMES) {
    const file = manifest[logical];
    if (typeof file !== 'string' || !BUNDLE_FILE.test(file))
      throw new Error(
        `${join(dir, WEB_MANIFEST)}: no valid file name for "${logical}" (run npm run build:web)`,
      );
    const ext = file.slice(file.lastIndexOf('.') + 1);
    bundle.set(
      logical,
      assetOf(`/dashboard/static/${file}`, CONTENT_TYPES[ext]!, readFileSync(join(dir, file))),
    );
  }
  return bundle;
}

/** The reference lists as the browser's engine reads them (engine.ts ReferenceListsAsset): codes only. */
export function referenceListsAsset(
  references: ReferenceDirectory,
  specVersion = CURRENT_SPEC_VERSION,
): Asset {
  const lists = references.lists(specVersion);
  const body = {
    spec_version: specVersion,
    lists: Object.fromEntries(
      REFERENCE_LIST_NAMES.map((name) => {
        const list = lists[name];
        const codes = [...list.entries.keys()].join('\n');
        return [name, { source: list.source, version: list.version, complete: list.complete, codes }];
      }),
    ),
  };
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  return assetOf(`/dashboard/static/reference-lists-${specVersion}.${hash}.json`, CONTENT_TYPES.json!, bytes);
}

export class WebAssets {
  private readonly byPath: Map<string, Asset>;

  constructor(
    private readonly bundle: ReadonlyMap<WebLogicalName, Asset> | null,
    readonly lists: Asset,
  ) {
    this.byPath = new Map([...(bundle?.values() ?? []), lists].map((a) => [a.path, a]));
  }

  static load(references: ReferenceDirectory, dir: string | null = findWebBundleDir()): WebAssets {
    return new WebAssets(loadWebBundle(dir), referenceListsAsset(references));
  }

  get built(): boolean {
    return this.bundle !== null;
  }

  at(path: string): Asset | undefined {
    return this.byPath.get(path);
  }

  urls(): WebAssetUrls {
    const url = (name: WebLogicalName): string => {
      const asset = this.bundle?.get(name);
      if (!asset) throw new Error('The dashboard front end is not built: run npm run build:web.');
      return asset.path;
    };
    return {
      worker: url('engine-worker.js'),
      lists: this.lists.path,
      buildJs: url('build.js'),
      buildCss: url('build.css'),
      tryJs: url('try.js'),
    };
  }
}

export function webAssetUrls(web: WebAssets): WebAssetUrls {
  return web.urls();
}
