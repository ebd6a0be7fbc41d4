import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  REFERENCE_LIST_NAMES,
  createReferenceLists,
  type ReferenceListInput,
  type ReferenceListName,
  type ReferenceLists,
} from '@ppfile/rules/references';
import { ReferenceDataError } from './errors';
import { readListFile } from './list-file';
import { readManifest, versionFolder } from './manifest';

/**
 * Every validation needs the lists, and the CLI, the gateway and the worker ask for them per request
 * or per job: they are read once per (directory, spec version) and shared. The lists are immutable
 * once built; an import clears its own entry, and a long-running process picks up another process's
 * import only after clearReferenceCache() or a restart.
 */
const cache = new Map<string, ReferenceLists>();

const cacheKey = (dir: string, specVersion: string): string => `${resolve(dir)}\0${specVersion}`;

export function loadReferenceLists(dir: string, specVersion: string): ReferenceLists {
  const key = cacheKey(dir, specVersion);
  const cached = cache.get(key);
  if (cached) return cached;

  const root = resolve(dir);
  if (!isDirectory(root)) throw new ReferenceDataError(`reference-data directory not found: ${root}`);
  const folder = versionFolder(root, specVersion);
  if (!isDirectory(folder)) {
    throw new ReferenceDataError(`no reference lists for spec version ${specVersion}: ${folder} not found`);
  }
  const manifest = readManifest(root, specVersion);
  const input = {} as Record<ReferenceListName, ReferenceListInput>;
  for (const name of REFERENCE_LIST_NAMES) {
    const entry = manifest.lists[name];
    input[name] = {
      source: entry.source,
      version: entry.version,
      complete: entry.complete,
      entries: readListFile(join(folder, entry.file), name, entry.count),
    };
  }
  const lists = createReferenceLists(input);
  cache.set(key, lists);
  return lists;
}

/** Forget the lists of one directory and spec version, or of all when called without arguments. */
export function clearReferenceCache(dir?: string, specVersion?: string): void {
  if (dir === undefined) {
    cache.clear();
    return;
  }
  if (specVersion !== undefined) {
    cache.delete(cacheKey(dir, specVersion));
    return;
  }
  const prefix = `${resolve(dir)}\0`;
  for (const key of cache.keys()) if (key.startsWith(prefix)) cache.delete(key);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
