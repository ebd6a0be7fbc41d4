import { createHash } from 'node:crypto';
import { SCRIPT } from './script';
import { STYLES } from './styles';

/** The mark of the dashboard: a document with a check, in the brand's colours. */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2346c8"/><path d="M10 7h9l5 5v13a1 1 0 0 1-1 1H10a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z" fill="#fff"/><path d="M12.5 18.5l3 3 5.5-6" fill="none" stroke="#2346c8" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

export interface Asset {
  /** The URL path, with the content's hash: cached for a year, a new version is a new URL. */
  path: string;
  contentType: string;
  body: Buffer;
  etag: string;
  /** Precomputed compressed forms (web-assets.ts), chosen by the request's Accept-Encoding. */
  gzip?: Buffer;
  br?: Buffer;
}

function asset(name: string, ext: string, contentType: string, text: string): Asset {
  const body = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(body).digest('hex');
  return {
    path: `/dashboard/static/${name}.${hash.slice(0, 12)}.${ext}`,
    contentType,
    body,
    etag: `"${hash.slice(0, 32)}"`,
  };
}

export const ASSETS = {
  css: asset('app', 'css', 'text/css; charset=utf-8', STYLES),
  js: asset('app', 'js', 'text/javascript; charset=utf-8', SCRIPT),
  icon: asset('icon', 'svg', 'image/svg+xml', ICON),
} as const;

const BY_PATH = new Map<string, Asset>(Object.values(ASSETS).map((a) => [a.path, a]));

/** The asset served at `path` (exactly one of the hashed URLs), or undefined. */
export function assetAt(path: string): Asset | undefined {
  return BY_PATH.get(path);
}
