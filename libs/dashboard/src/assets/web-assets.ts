import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { ReferenceDirectory } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION, REFERENCE_LIST_NAMES } from '@ppfile/rules';
import { WebBundleMissing } from '../dashboard-errors';
import type { Asset } from './assets';

/**
 * The browser side of the dashboard (libs/dashboard/web, issue 36) as the gateway serves it: the
 * files `npm run build:web` writes to dist/dashboard-web (named in its manifest.json, each name with
 * its content's hash), and the reference lists the engine checks against, built here from the
 * gateway's own ReferenceDirectory — so the browser checks with exactly the lists the API does.
 * Everything is read and compressed once, at boot, and served from memory (static.controller.ts).
 */

/** Where `npm run build:web` writes, below the repository (or image) root. */
export const WEB_BUNDLE_DIR = join('dist', 'dashboard-web');
export const WEB_MANIFEST = 'manifest.json';
/** The manifest's logical names the pages use: each must name a file. */
export const WEB_LOGICAL_NAMES = ['engine-worker.js', 'try.js', 'build.js', 'build.css'] as const;
export type WebLogicalName = (typeof WEB_LOGICAL_NAMES)[number];

/** The URLs of the front end's pieces, as the Build and Try pages put them in their HTML and config. */
export interface WebAssetUrls {
  /** The engine's Web Worker (libs/rules + libs/sheets). */
  worker: string;
  /** The reference lists the worker fetches. */
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

/** A manifest's file name: `<name>.<hash>.<ext>`, nothing that climbs out of the folder. */
const BUNDLE_FILE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.(js|css)$/;

/**
 * dist/dashboard-web above `from`, found by walking up to the directory that holds package.json (as
 * libs/refdata shipped-dir.ts finds reference-data/): the depth differs between the sources, under
 * jest, and the build (dist/gateway/libs/dashboard/src/assets). null when no package.json is above.
 */
export function findWebBundleDir(from: string = __dirname): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, WEB_BUNDLE_DIR);
    if (dirname(dir) === dir) return null;
  }
}

/** An asset from its bytes, with its gzip and brotli forms when `compress` (text worth compressing). */
export function assetOf(path: string, contentType: string, body: Buffer, compress = true): Asset {
  const hash = createHash('sha256').update(body).digest('hex');
  return {
    path,
    contentType,
    body,
    etag: `"${hash.slice(0, 32)}"`,
    ...(compress
      ? {
          gzip: gzipSync(body, { level: 9 }),
          br: brotliCompressSync(body, {
            params: {
              // 11 costs seconds at each boot for a few per cent; 9 is close and fast.
              [zlib.BROTLI_PARAM_QUALITY]: 9,
              [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
              [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        }
      : {}),
  };
}

/**
 * The bundle's files by logical name, or null when the folder or its manifest is missing (the pages
 * that need them then answer 503 saying to run `npm run build:web`). A manifest that names a file
 * that is not there, or a name outside BUNDLE_FILE, is a broken build: it stops the boot.
 */
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

/**
 * The reference lists of the current spec version as the browser's engine reads them: codes only
 * (no labels: the checks need none), one per line, with each list's source, version and
 * completeness. Its URL carries the spec version and the content's hash: a new import of the lists is
 * a new URL.
 */
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

/**
 * The front end's files and the reference lists, held for the process's life (a provider of
 * DashboardModule, made at boot). The Build and Try pages ask it for their URLs (webAssetUrls);
 * the static controller, for the bytes of a path.
 */
export class WebAssets {
  private readonly byPath: Map<string, Asset>;

  constructor(
    private readonly bundle: ReadonlyMap<WebLogicalName, Asset> | null,
    readonly lists: Asset,
  ) {
    this.byPath = new Map([...(bundle?.values() ?? []), lists].map((a) => [a.path, a]));
  }

  /** Reads dist/dashboard-web (when built) and builds the lists asset. */
  static load(references: ReferenceDirectory, dir: string | null = findWebBundleDir()): WebAssets {
    return new WebAssets(loadWebBundle(dir), referenceListsAsset(references));
  }

  /** Whether `npm run build:web` was run before the process started. */
  get built(): boolean {
    return this.bundle !== null;
  }

  /** The asset served at `path`, or undefined. */
  at(path: string): Asset | undefined {
    return this.byPath.get(path);
  }

  /** The pages' URLs; WebBundleMissing (a 503 page) when the bundle was not built. */
  urls(): WebAssetUrls {
    const url = (name: WebLogicalName): string => {
      const asset = this.bundle?.get(name);
      if (!asset) throw new WebBundleMissing();
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

/** The URLs a page of the front end needs (Build, Try it): WebBundleMissing when it was not built. */
export function webAssetUrls(web: WebAssets): WebAssetUrls {
  return web.urls();
}
