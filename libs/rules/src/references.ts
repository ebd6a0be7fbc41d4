/**
 * Reference lists (code lists) the rules check codes against.
 *
 * The rules library never reads them from disk: a loader (libs/refdata) builds them and passes
 * them in. A list is `complete` when it was loaded from a full official export; against a partial
 * list an unknown code is only a REFERENCE_NOT_VERIFIED warning (API.md §3c).
 */

export const REFERENCE_LIST_NAMES = ['rome', 'formacode', 'nsf', 'rs'] as const;
export type ReferenceListName = (typeof REFERENCE_LIST_NAMES)[number];

export interface ReferenceListInfo {
  /** Where the codes come from (an official export's name, or "ppfile built-in"). */
  readonly source: string;
  /** Version of the source (e.g. "ROME 4.0 v460"). */
  readonly version: string;
  readonly complete: boolean;
}

export interface ReferenceList extends ReferenceListInfo {
  readonly name: ReferenceListName;
  /** code → label ('' when the source gives none). */
  readonly entries: ReadonlyMap<string, string>;
  /**
   * Whether the list holds `code`: what a validation asks, the only question it asks. A loader may
   * answer it without `entries` (libs/refdata reads the codes of a list file, not its labels, and
   * only when a file first asks about that list).
   */
  has(code: string): boolean;
}

export interface ReferenceLists {
  readonly rome: ReferenceList;
  readonly formacode: ReferenceList;
  readonly nsf: ReferenceList;
  readonly rs: ReferenceList;
  /** Three-digit NSF groups, derived from the NSF list: a letter code needs its group to exist. */
  readonly nsfGroups: ReadonlySet<string>;
}

export interface ReferenceListInput extends ReferenceListInfo {
  readonly entries: Iterable<readonly [string, string]> | ReadonlyMap<string, string>;
}

export function createReferenceLists(
  input: Readonly<Record<ReferenceListName, ReferenceListInput>>,
): ReferenceLists {
  const build = (name: ReferenceListName): ReferenceList => {
    const src = input[name];
    const entries = src.entries instanceof Map ? src.entries : new Map(src.entries);
    return {
      name,
      source: src.source,
      version: src.version,
      complete: src.complete,
      entries,
      has: (code) => entries.has(code),
    };
  };
  const nsf = build('nsf');
  const nsfGroups = new Set<string>();
  for (const code of nsf.entries.keys()) if (code.length === 3) nsfGroups.add(code);
  return { rome: build('rome'), formacode: build('formacode'), nsf, rs: build('rs'), nsfGroups };
}

/** Code formats (API.md §3c): checked before membership, whatever the options. */
export const REFERENCE_CODE_FORMATS: Readonly<Record<ReferenceListName, RegExp>> = {
  rome: /^\d{6}$/,
  formacode: /^\d{5}$/,
  nsf: /^\d{3}[a-z]?$/,
  rs: /^RS\d{1,7}$/,
};
