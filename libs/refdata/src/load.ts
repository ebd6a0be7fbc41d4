import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  REFERENCE_LIST_NAMES,
  type ReferenceList,
  type ReferenceListName,
  type ReferenceLists,
} from '@ppfile/rules/references';
import { ReferenceDataError } from './errors';
import { readListCodes, readListFile } from './list-file';
import { readManifest, versionFolder, type ManifestListEntry } from './manifest';

/**
 * Every validation needs the lists, and the CLI, the gateway and the worker ask for them per request
 * or per job: they are read once per (directory, spec version) and shared. The lists are immutable
 * once built; an import clears its own entry, and a long-running process picks up another process's
 * import only after clearReferenceCache() or a restart.
 */
const cache = new Map<string, DirectoryLists>();

const cacheKey = (dir: string, specVersion: string): string => `${resolve(dir)}\0${specVersion}`;

/**
 * How much of the lists is read now. `eager` (the gateway and the worker, at boot): every list
 * file, codes and labels, so that a bad file stops the process before a request. `lazy` (a command
 * line run): the manifest now, and a list file only when the work first asks about that list — its
 * codes alone for a validation (`has`), its labels too when `entries` is read; a list the file does
 * not use is never read. Both answer the same questions the same way; a bad list file fails with
 * the same ReferenceDataError, when it is read.
 */
export type LoadMode = 'eager' | 'lazy';

export function loadReferenceLists(
  dir: string,
  specVersion: string,
  mode: LoadMode = 'eager',
): ReferenceLists {
  const key = cacheKey(dir, specVersion);
  let lists = cache.get(key);
  if (!lists) {
    lists = openLists(dir, specVersion);
    cache.set(key, lists);
  }
  if (mode === 'eager') {
    try {
      lists.loadAll();
    } catch (e) {
      cache.delete(key); // as if nothing had been read: the next call reads the manifest again
      throw e;
    }
  }
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

function openLists(dir: string, specVersion: string): DirectoryLists {
  const root = resolve(dir);
  if (!isDirectory(root)) throw new ReferenceDataError(`reference-data directory not found: ${root}`);
  const folder = versionFolder(root, specVersion);
  if (!isDirectory(folder)) {
    throw new ReferenceDataError(`no reference lists for spec version ${specVersion}: ${folder} not found`);
  }
  const manifest = readManifest(root, specVersion);
  const list = (name: ReferenceListName) =>
    new ListFile(name, join(folder, manifest.lists[name].file), manifest.lists[name]);
  return new DirectoryLists(list('rome'), list('formacode'), list('nsf'), list('rs'));
}

/** One list of a reference directory, read from its file on first use. */
class ListFile implements ReferenceList {
  readonly source: string;
  readonly version: string;
  readonly complete: boolean;
  private codes: ReadonlySet<string> | null = null;
  private labels: ReadonlyMap<string, string> | null = null;

  constructor(
    readonly name: ReferenceListName,
    private readonly file: string,
    private readonly manifest: ManifestListEntry,
  ) {
    this.source = manifest.source;
    this.version = manifest.version;
    this.complete = manifest.complete;
  }

  get entries(): ReadonlyMap<string, string> {
    if (!this.labels) {
      this.labels = readListFile(this.file, this.name, this.manifest.count);
      this.codes = null; // the map answers has() from now on
    }
    return this.labels;
  }

  has(code: string): boolean {
    if (this.labels) return this.labels.has(code);
    this.codes ??= readListCodes(this.file, this.name, this.manifest.count);
    return this.codes.has(code);
  }

  /** What has been read of the file so far (tests: a list a file does not use stays `none`). */
  get read(): 'none' | 'codes' | 'entries' {
    return this.labels ? 'entries' : this.codes ? 'codes' : 'none';
  }

  /** The codes, from whichever form was read (the codes alone if neither was). */
  codeList(): Iterable<string> {
    if (this.labels) return this.labels.keys();
    this.codes ??= readListCodes(this.file, this.name, this.manifest.count);
    return this.codes;
  }
}

class DirectoryLists implements ReferenceLists {
  private groups: ReadonlySet<string> | null = null;

  constructor(
    readonly rome: ListFile,
    readonly formacode: ListFile,
    readonly nsf: ListFile,
    readonly rs: ListFile,
  ) {}

  /** Three-digit NSF groups (a letter code needs its group), from the NSF list when first asked. */
  get nsfGroups(): ReadonlySet<string> {
    if (!this.groups) {
      const groups = new Set<string>();
      for (const code of this.nsf.codeList()) if (code.length === 3) groups.add(code);
      this.groups = groups;
    }
    return this.groups;
  }

  loadAll(): void {
    for (const name of REFERENCE_LIST_NAMES) void this[name].entries;
    void this.nsfGroups;
  }
}

/** What has been read of each list of `lists` (as loadReferenceLists returned them): for tests. */
export function listsRead(lists: ReferenceLists): Record<ReferenceListName, 'none' | 'codes' | 'entries'> {
  if (!(lists instanceof DirectoryLists)) throw new Error('not lists of a reference directory');
  const read = {} as Record<ReferenceListName, 'none' | 'codes' | 'entries'>;
  for (const name of REFERENCE_LIST_NAMES) read[name] = lists[name].read;
  return read;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
