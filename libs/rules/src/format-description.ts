import { localize, type Localized } from './catalogue';
import type { ReferenceListName, ReferenceLists } from './references';
import { REFERENCE_LIST_NAMES } from './references';
import {
  DECLARANTS,
  FILE_TYPES,
  type ColumnSpec,
  type Condition,
  type Declarant,
  type Presence,
  type SpecVersion,
} from './format';

/** GET /v1/spec/{version} (API.md §9): the tables of a format version, as data for callers. */
export interface SpecDescription {
  spec_version: string;
  kinds: {
    type: string;
    declarant: Declarant;
    columns: {
      position: number;
      name: string;
      labels: { fr: string; en: string };
      field: string;
      level: 'declaration' | 'holder';
      required: string;
      max_length: number | null;
      allowed_values: readonly string[] | null;
      value_count: { min: number; max: number } | null;
      reference_list: ReferenceListName | null;
    }[];
  }[];
  enumerations: SpecVersion['enumerations'];
  limits: Record<string, number>;
  reference_lists: {
    name: ReferenceListName;
    source: string;
    version: string;
    count: number;
    complete: boolean;
  }[];
}

/** The conditions of a column's presence, in words: GET /v1/spec (English) and the XLSX template. */
export const CONDITION_WORDS: Readonly<Record<Condition, Localized<string>>> = {
  training: { en: 'PRESENCE_FORMATION = OUI', fr: 'PRESENCE_FORMATION = OUI' },
  certifying: { en: 'FORMATION_CERTIFIANTE = OUI', fr: 'FORMATION_CERTIFIANTE = OUI' },
  not_certifying: { en: 'FORMATION_CERTIFIANTE = NON', fr: 'FORMATION_CERTIFIANTE = NON' },
  not_certifying_or_unset: {
    en: 'FORMATION_CERTIFIANTE is not OUI',
    fr: "FORMATION_CERTIFIANTE n'est pas OUI",
  },
  employer_present: { en: 'PRESENCE_EMPLOYEUR = OUI', fr: 'PRESENCE_EMPLOYEUR = OUI' },
};

function requiredRule(presence: Presence): string {
  if (presence === 'never') return 'empty';
  const base = presence.required ? 'required' : 'optional';
  return presence.when ? `${base} when ${localize(CONDITION_WORDS[presence.when], 'en')}, else empty` : base;
}

function jsonField(column: ColumnSpec): string {
  const base = column.level === 'declaration' ? 'declarations[]' : 'declarations[].holders[]';
  const path =
    column.json.kind === 'employer_presence'
      ? 'employer_agreement (derived from employer_siret)'
      : column.json.path;
  return column.json.kind === 'training_presence' ? `${base}.training (present → OUI)` : `${base}.${path}`;
}

export function describeSpec(spec: SpecVersion, refs: ReferenceLists): SpecDescription {
  const kinds = FILE_TYPES.flatMap((type) =>
    DECLARANTS.map((declarant) => ({
      type,
      declarant,
      columns: spec.tables[type].columns.map((c, i) => ({
        position: i + 1,
        name: c.name,
        labels: { fr: c.labels.fr, en: c.labels.en },
        field: jsonField(c),
        level: c.level,
        required: requiredRule(c.presence[declarant]),
        max_length: c.maxLength ?? null,
        allowed_values: c.values ?? null,
        value_count: c.count ? { min: c.count[declarant][0], max: c.count[declarant][1] } : null,
        reference_list: c.list ?? null,
      })),
    })),
  );
  const l = spec.limits;
  return {
    spec_version: spec.version,
    kinds,
    enumerations: spec.enumerations,
    limits: {
      file_bytes: l.maxBytes,
      json_body_bytes: l.maxBytes,
      rows_per_request_live: l.maxRowsLive,
      rows_per_request_test: l.maxRowsTest,
      holders_per_declaration: l.maxHoldersPerDeclaration,
      errors_listed: l.maxErrorsListed,
      birth_name_characters: 30,
      retention_hours_max: l.maxRetentionHours,
      formacodes_per_declaration: 5,
      nsf_codes_per_declaration: 3,
      transferable_skills_per_declaration: 10,
    },
    reference_lists: REFERENCE_LIST_NAMES.map((name) => {
      const list = refs[name];
      return {
        name,
        source: list.source,
        version: list.version,
        count: list.entries.size,
        complete: list.complete,
      };
    }),
  };
}

/**
 * GET /v1/spec/{version}/references/{list}?q=&limit=&cursor= — codes in order, filtered by a
 * case-insensitive substring of code or label; the cursor is the last code returned.
 */
export function searchReferences(
  refs: ReferenceLists,
  name: ReferenceListName,
  query: { q?: string; limit?: number; cursor?: string },
): { items: { code: string; label: string }[]; next_cursor: string | null } {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 500);
  const q = query.q?.trim().toLocaleLowerCase('fr');
  const { codes, searchable } = sortedCodes(refs[name].entries);
  const items: { code: string; label: string }[] = [];
  let next: string | null = null;
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (query.cursor !== undefined && code <= query.cursor) continue;
    if (q && !searchable[i]!.code.includes(q) && !searchable[i]!.label.includes(q)) continue;
    const label = refs[name].entries.get(code) ?? '';
    if (items.length === limit) {
      next = items[items.length - 1]!.code;
      break;
    }
    items.push({ code, label });
  }
  return { items, next_cursor: next };
}

/** A list's codes in order and, for each, its code and label lower-cased once (18,317 ROME labels). */
interface SearchIndex {
  codes: readonly string[];
  searchable: readonly { code: string; label: string }[];
}
const SORTED = new WeakMap<ReadonlyMap<string, string>, SearchIndex>();

function sortedCodes(entries: ReadonlyMap<string, string>): SearchIndex {
  let index = SORTED.get(entries);
  if (!index) {
    const codes = [...entries.keys()].sort();
    const searchable = codes.map((c) => ({
      code: c.toLowerCase(),
      label: (entries.get(c) ?? '').toLocaleLowerCase('fr'),
    }));
    SORTED.set(entries, (index = { codes, searchable }));
  }
  return index;
}
