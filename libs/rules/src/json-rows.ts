import type { ReferenceListName } from './references';
import type { DeclarationRequest } from './request';
import type { RowLocator } from './row-checker';
import type { ColumnSpec, KindTable } from './format/types';
import { formatFrDate, parseIsoDate } from './values/dates';
import { hasValidNirKey } from './values/nir';
import { asciiUpperCase, hasForbiddenCharacter, trimWhiteSpace } from './values/text';

/** Normalization rules of SERVICE.md §2.6 / API.md §5 (+ DECLARATION_SPLIT of API.md §2). */
export const NORMALIZATION_RULES = [
  'WHITESPACE_TRIMMED',
  'UNICODE_NFC',
  'DATE_REFORMATTED',
  'ENUM_UPPERCASED',
  'SEPARATORS_REMOVED',
  'CODE_NORMALIZED',
  'NIR_KEY_REMOVED',
  'DECLARATION_SPLIT',
] as const;
export type NormalizationRule = (typeof NORMALIZATION_RULES)[number];

/** One changed value: where, which column, which rule. The value itself is never copied. */
export interface Normalization {
  field: string;
  column: string;
  rule: NormalizationRule;
}

/** Where normalizations are recorded: a JSON body's log (`field`), or the fix of a CSV (its row). */
export interface NormalizationSink {
  add(field: string | (() => string), column: string, rule: NormalizationRule): void;
}

export class NormalizationLog implements NormalizationSink {
  readonly entries: Normalization[] = [];
  count = 0;
  constructor(private readonly cap: number) {}
  add(field: string | (() => string), column: string, rule: NormalizationRule): void {
    this.count++;
    if (this.entries.length < this.cap) {
      this.entries.push({ field: typeof field === 'string' ? field : field(), column, rule });
    }
  }
}

type Json = Record<string, unknown>;

/** ASCII printable with no space at either end: the common case needs no normalization at all. */
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;
/**
 * Separators people type inside a NIR or SIRET: spaces, dots, hyphens, slashes. `\s` also matches
 * line breaks and tabs: withoutSeparators never removes them (a value holding one is left whole for
 * INVALID_CHARACTER).
 */
const ID_SEPARATORS = /[\s.\-/]/g;
/** The same, tested before replacing: most values hold none. */
const HAS_ID_SEPARATOR = /[\s.\-/]/;

/**
 * Turns a structurally checked body into rows of official cells (in column order), applying and
 * logging the normalizations. Nothing here judges a value: a value that cannot be normalized is
 * left as it is, and the row checker reports it. Never corrected: codes, names, dates, SIRET keys.
 * Characters the file cannot hold (values/text.ts: `|`, line breaks, control, invisible and format
 * characters, damaged text) are never removed from a value, so that INVALID_CHARACTER sees them;
 * only white space at either end is trimmed (trimWhiteSpace: Unicode White_Space, so CR, LF, tab,
 * U+2028 and U+2029 there go like spaces, and a BOM U+FEFF stays to be refused). NFC removes no
 * such character either: it only composes a letter with the marks that follow it, and a value that
 * still starts with a mark after it is refused.
 */
export class JsonRowMapper {
  private readonly decl: ColumnSpec[] = [];
  private readonly holder: ColumnSpec[] = [];
  private readonly declIndex: number[] = [];
  private readonly holderIndex: number[] = [];
  private readonly declKeys: (readonly string[])[];
  private readonly holderKeys: (readonly string[])[];
  private readonly idIndex: number;
  private readonly width: number;
  private readonly values: ValueNormalizer;

  constructor(
    table: KindTable,
    private readonly request: DeclarationRequest,
    private readonly log: NormalizationLog,
  ) {
    this.values = new ValueNormalizer(log);
    table.columns.forEach((c, i) => {
      if (c.level === 'declaration') {
        this.decl.push(c);
        this.declIndex.push(i);
      } else {
        this.holder.push(c);
        this.holderIndex.push(i);
      }
    });
    this.declKeys = this.decl.map((c) => c.json.path.split('.'));
    this.holderKeys = this.holder.map((c) => c.json.path.split('.'));
    this.idIndex = table.columns.findIndex((c) => c.name === 'ID_DECLARATION');
    this.width = table.columns.length;
  }

  /**
   * Visits the rows in file order, one at a time, so that a large body's rows are checked and
   * written without being collected. The array is reused: a visitor that keeps a row copies it.
   */
  forEachRow(visit: (cells: string[], loc: RowLocator) => void): void {
    const maxHolders = this.request.spec.limits.maxHoldersPerDeclaration;
    const idInDecl = this.declIndex.indexOf(this.idIndex);
    const row = new Array<string>(this.width).fill('');
    this.request.declarations.forEach((declaration, d) => {
      const declCells = this.decl.map((c, k) =>
        this.cell(declaration, declaration, c, this.declKeys[k]!, d, -1),
      );
      const holders = declaration.holders as Json[];
      const split = this.request.options.split_large_declarations && holders.length > maxHolders;
      if (split) this.log.add(`declarations[${d}].id`, 'ID_DECLARATION', 'DECLARATION_SPLIT');
      const baseId = declCells[idInDecl]!;
      for (let k = 0; k < this.decl.length; k++) row[this.declIndex[k]!] = declCells[k]!;
      for (let h = 0; h < holders.length; h++) {
        const holder = holders[h]!;
        row[this.idIndex] = split ? `${baseId}_P${Math.floor(h / maxHolders) + 1}` : baseId;
        for (let k = 0; k < this.holder.length; k++) {
          row[this.holderIndex[k]!] = this.cell(
            holder,
            declaration,
            this.holder[k]!,
            this.holderKeys[k]!,
            d,
            h,
          );
        }
        visit(row, { declaration: d, holder: h });
      }
    });
  }

  /** Request path of a cell, for errors (API.md §4 `field`). */
  static fieldOf(this: void, loc: RowLocator, column: ColumnSpec, element?: number): string {
    const base =
      column.level === 'declaration'
        ? `declarations[${loc.declaration}]`
        : `declarations[${loc.declaration}].holders[${loc.holder}]`;
    return element === undefined ? `${base}.${column.json.path}` : `${base}.${column.json.path}[${element}]`;
  }

  /** The cell being mapped, so that its request path is built only when a normalization is logged. */
  private at = { declaration: 0, holder: -1, path: '', element: -1 };
  private readonly field = (): string => {
    const { declaration, holder, path, element } = this.at;
    const base =
      holder < 0
        ? `declarations[${declaration}].${path}`
        : `declarations[${declaration}].holders[${holder}].${path}`;
    return element < 0 ? base : `${base}[${element}]`;
  };

  /** `holder` is -1 for a declaration-level column. */
  private cell(
    owner: Json,
    declaration: Json,
    column: ColumnSpec,
    keys: readonly string[],
    d: number,
    holder: number,
  ): string {
    const source = column.json;
    const at = this.at;
    at.declaration = d;
    at.holder = holder;
    at.path = source.path;
    at.element = -1;
    const field = this.field;
    switch (source.kind) {
      case 'training_presence':
        return isObject(declaration.training) ? 'OUI' : 'NON';
      case 'employer_presence': {
        const agreement = owner.employer_agreement;
        if (typeof agreement === 'boolean') return agreement ? 'OUI' : 'NON';
        if (this.request.declarant !== 'training_organization') return '';
        // A training organization states the employer's agreement by giving its SIRET (SERVICE.md §2.1).
        const siret = owner.employer_siret;
        return typeof siret === 'string' && trimWhiteSpace(siret) !== '' ? 'OUI' : 'NON';
      }
    }
    const value = get(owner, keys);
    if (value === undefined || value === null) return '';
    switch (source.kind) {
      case 'boolean':
        return value === true ? 'OUI' : 'NON';
      case 'string':
        return this.values.text(value as string, field, column.name);
      case 'enum':
        return this.values.enumValue(value as string, field, column);
      case 'date':
        return this.values.date(value as string, field, column.name);
      case 'nir':
        return this.values.nir(value as string, field, column.name);
      case 'siret':
        return this.values.siret(value as string, field, column.name);
      case 'codes':
        if (Array.isArray(value)) {
          return value
            .map((v, k) => {
              at.element = k;
              const code = this.values.code(v as string, field, column.name, column.list!);
              // "/" joins the elements in the file: inside one element it would make two codes of it
              // and shift the index of every later element. Swapped for a look-alike that no code
              // format accepts, the element stays one malformed code, reported on its own path
              // (API.md §3c, §4); the file is then never written.
              return code.includes('/') ? code.replaceAll('/', '\u2044') : code;
            })
            .join('/');
        }
        return this.values.code(value as string, field, column.name, column.list!);
    }
  }
}

/**
 * The normalizations of SERVICE.md §2.6 / API.md §5, one value at a time, each recorded in the sink:
 * the one place they are written, for JSON bodies (JsonRowMapper), spreadsheet imports (through the
 * body they make) and the fix of an official CSV (csv-fixer.ts). A value that cannot be normalized
 * is returned as it is, for the row checker to judge.
 */
export class ValueNormalizer {
  constructor(private readonly log: NormalizationSink) {}

  /** NFC (UNICODE_NFC), then white space at either end trimmed (WHITESPACE_TRIMMED). */
  text(value: string, field: () => string, column: string): string {
    if (PLAIN.test(value)) return value;
    let out = value;
    if (NON_ASCII.test(out)) {
      const nfc = out.normalize('NFC');
      if (nfc !== out) {
        this.log.add(field, column, 'UNICODE_NFC');
        out = nfc;
      }
    }
    const trimmed = trimWhiteSpace(out);
    if (trimmed !== out) {
      this.log.add(field, column, 'WHITESPACE_TRIMMED');
      out = trimmed;
    }
    return out;
  }

  /**
   * Enumerations: a value whose upper case is one of the column's values is written so
   * (ENUM_UPPERCASED) — the case of a–z only (asciiUpperCase): no other letter turns into one of theirs.
   */
  enumValue(value: string, field: () => string, column: ColumnSpec): string {
    if (column.values!.includes(value)) return value;
    const text = this.text(value, field, column.name);
    const upper = asciiUpperCase(text);
    if (upper !== text && column.values!.includes(upper)) {
      this.log.add(field, column.name, 'ENUM_UPPERCASED');
      return upper;
    }
    return text;
  }

  /** YYYY-MM-DD becomes dd/mm/yyyy (DATE_REFORMATTED); anything else stays for the checker. */
  date(value: string, field: () => string, column: string): string {
    const text = this.text(value, field, column);
    const day = parseIsoDate(text);
    if (day === null) return text;
    this.log.add(field, column, 'DATE_REFORMATTED');
    return formatFrDate(day);
  }

  /** Separators removed, then a correct key (15 characters) removed (NIR_KEY_REMOVED). */
  nir(value: string, field: () => string, column: string): string {
    const compact = this.withoutSeparators(this.text(value, field, column), field, column);
    if (compact.length === 15 && hasValidNirKey(compact)) {
      this.log.add(field, column, 'NIR_KEY_REMOVED');
      return compact.slice(0, 13);
    }
    return compact;
  }

  siret(value: string, field: () => string, column: string): string {
    return this.withoutSeparators(this.text(value, field, column), field, column);
  }

  /**
   * A value holding a forbidden character (a line break, a control or invisible character such as a
   * BOM, which `\s` matches, `|`) keeps it: the row checker must see it and refuse it
   * (INVALID_CHARACTER), not find a clean NIR or SIRET.
   */
  private withoutSeparators(value: string, field: () => string, column: string): string {
    if (!HAS_ID_SEPARATOR.test(value)) return value;
    const compact = value.replace(ID_SEPARATORS, '');
    if (compact === value || hasForbiddenCharacter(value)) return value;
    this.log.add(field, column, 'SEPARATORS_REMOVED');
    return compact;
  }

  /** Case of NSF (lower-case letter) and RS codes (upper-case prefix, no inner space): never the digits. */
  code(value: string, field: () => string, column: string, list: ReferenceListName): string {
    const text = this.text(value, field, column);
    let normalized = text;
    if (list === 'nsf' && /^\d{3}[A-Z]$/.test(text)) normalized = text.toLowerCase();
    // [Rr][Ss], not /rs/i: with the `u` flag, `i` also takes the long ſ for s.
    else if (list === 'rs' && /^[Rr][Ss]\s*\d+$/.test(text))
      normalized = `RS${trimWhiteSpace(text.slice(2))}`;
    // `\s` matches line breaks and U+FEFF too: an RS code holding one is left whole (INVALID_CHARACTER).
    if (normalized === text || hasForbiddenCharacter(text)) return text;
    this.log.add(field, column, 'CODE_NORMALIZED');
    return normalized;
  }
}

/** `keys`: the column's JSON path split once (`training.start_date` → ['training', 'start_date']). */
function get(owner: Json, keys: readonly string[]): unknown {
  if (keys.length === 1) return owner[keys[0]!];
  const parent = owner[keys[0]!];
  return isObject(parent) ? parent[keys[1]!] : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
