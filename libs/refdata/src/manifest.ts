import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_LIST_NAMES, type ReferenceListName } from '@ppfile/rules/references';
import { writeFileAtomic } from './atomic-write';
import { ReferenceDataError } from './errors';

export const MANIFEST_FILE = 'manifest.json';

/** One list of `<dir>/<spec_version>/manifest.json` (API.md §3c: source, version, count, completeness). */
export interface ManifestListEntry {
  /** The list file's name inside the spec-version folder. */
  readonly file: string;
  readonly source: string;
  readonly version: string;
  /** Number of lines (codes) of the list file; checked on every load. */
  readonly count: number;
  readonly complete: boolean;
  /** When an operator last imported the list; null for the lists shipped with ppfile. */
  readonly imported_at: string | null;
}

export interface ReferenceManifest {
  readonly spec_version: string;
  readonly lists: Readonly<Record<ReferenceListName, ManifestListEntry>>;
}

export function versionFolder(dir: string, specVersion: string): string {
  return join(dir, specVersion);
}

export function manifestPath(dir: string, specVersion: string): string {
  return join(dir, specVersion, MANIFEST_FILE);
}

export function readManifest(dir: string, specVersion: string): ReferenceManifest {
  const file = manifestPath(dir, specVersion);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ReferenceDataError(`cannot read reference-data manifest ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return parseManifest(text, file, specVersion);
}

export function parseManifest(text: string, file: string, specVersion: string): ReferenceManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ReferenceDataError(`malformed reference-data manifest ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const fail = (what: string): never => {
    throw new ReferenceDataError(`malformed reference-data manifest ${file}: ${what}`);
  };
  if (!isObject(raw)) return fail('not a JSON object');
  if (raw.spec_version !== specVersion) {
    return fail(`spec_version is ${JSON.stringify(raw.spec_version)}, expected "${specVersion}"`);
  }
  const lists = raw.lists;
  if (!isObject(lists)) return fail('"lists" is not an object');
  const entries = {} as Record<ReferenceListName, ManifestListEntry>;
  for (const name of REFERENCE_LIST_NAMES) {
    const e = lists[name];
    if (!isObject(e)) return fail(`list "${name}" is missing`);
    const at = `lists.${name}`;
    // The file name is joined to the folder: a path would let a manifest point outside it.
    if (typeof e.file !== 'string' || !/^[\w.-]+$/.test(e.file) || e.file.startsWith('.')) {
      return fail(`${at}.file must be a plain file name`);
    }
    if (typeof e.source !== 'string') return fail(`${at}.source must be a string`);
    if (typeof e.version !== 'string') return fail(`${at}.version must be a string`);
    if (typeof e.count !== 'number' || !Number.isInteger(e.count) || e.count < 0) {
      return fail(`${at}.count must be a non-negative integer`);
    }
    if (typeof e.complete !== 'boolean') return fail(`${at}.complete must be true or false`);
    if (e.imported_at !== null && typeof e.imported_at !== 'string') {
      return fail(`${at}.imported_at must be a string or null`);
    }
    entries[name] = {
      file: e.file,
      source: e.source,
      version: e.version,
      count: e.count,
      complete: e.complete,
      imported_at: e.imported_at,
    };
  }
  return { spec_version: specVersion, lists: entries };
}

/** Written in a fixed key order so that a re-import shows a minimal diff in review. */
export function serializeManifest(manifest: ReferenceManifest): string {
  const lists: Record<string, ManifestListEntry> = {};
  for (const name of REFERENCE_LIST_NAMES) {
    const e = manifest.lists[name];
    lists[name] = {
      file: e.file,
      source: e.source,
      version: e.version,
      count: e.count,
      complete: e.complete,
      imported_at: e.imported_at,
    };
  }
  return `${JSON.stringify({ spec_version: manifest.spec_version, lists }, null, 2)}\n`;
}

export function writeManifest(dir: string, manifest: ReferenceManifest): void {
  writeFileAtomic(manifestPath(dir, manifest.spec_version), serializeManifest(manifest));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
