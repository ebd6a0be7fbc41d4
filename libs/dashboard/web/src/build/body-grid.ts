/**
 * The declaration body seen as the grid shows it: one row per holder (declaration after declaration,
 * as the import built the body and as validation counts rows), one column per official column of the
 * kind. Pure: no DOM, so the grid's reading and editing of the body are tested on their own.
 */
import { CURRENT_SPEC_VERSION, findSpec, type ColumnSpec } from '@ppfile/rules/format';
import type { DeclarationBody } from '../engine/protocol';

type Json = Record<string, unknown>;

/** A grid row: the declaration's index in the body and the holder's index in that declaration. */
export interface RowLocation {
  declaration: number;
  holder: number;
}

/**
 * The official columns of a file type, in the file's order (the current version's spec table); both
 * declarants share them (API.md §3b).
 */
export function kindColumns(type: 'adf' | 'jdr'): readonly ColumnSpec[] {
  return findSpec(CURRENT_SPEC_VERSION)!.tables[type].columns;
}

/** The values a cell may take when it is a choice (OUI/NON, enumerations), else undefined. */
export function choicesOf(column: ColumnSpec): readonly string[] | undefined {
  switch (column.json.kind) {
    case 'boolean':
    case 'training_presence':
    case 'employer_presence':
      return ['OUI', 'NON'];
    case 'enum':
      return column.values;
    default:
      return undefined;
  }
}

/** Grid row ↔ (declaration, holder): the first row of each declaration, found by binary search. */
export class RowIndex {
  /** starts[d]: the grid row of declaration d's first holder; starts[n] = the row count. */
  private readonly starts: number[];

  constructor(body: DeclarationBody) {
    this.starts = [0];
    for (const decl of body.declarations) {
      const holders = Array.isArray(decl.holders) ? decl.holders.length : 0;
      this.starts.push(this.starts[this.starts.length - 1]! + holders);
    }
  }

  get rowCount(): number {
    return this.starts[this.starts.length - 1]!;
  }

  at(row: number): RowLocation {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= row) lo = mid;
      else hi = mid - 1;
    }
    return { declaration: lo, holder: row - this.starts[lo]! };
  }

  /** The grid row of a declaration's holder (its first when `holder` is undefined), or null. */
  rowOf(declaration: number, holder = 0): number | null {
    const start = this.starts[declaration];
    const next = this.starts[declaration + 1];
    if (start === undefined || next === undefined || start + holder >= next) return null;
    return start + holder;
  }

  /** How many grid rows a declaration spans. */
  span(declaration: number): number {
    return (this.starts[declaration + 1] ?? 0) - (this.starts[declaration] ?? 0);
  }
}

const FIELD = /^declarations\[(\d+)\](?:\.holders\[(\d+)\])?/;

/** The grid row a body path (`declarations[2].holders[5].nir`, `declarations[1].training.name`) points at. */
export function rowOfField(field: string | undefined, index: RowIndex): number | null {
  const m = field === undefined ? null : FIELD.exec(field);
  if (!m) return null;
  return index.rowOf(Number(m[1]), m[2] === undefined ? 0 : Number(m[2]));
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ownerOf(body: DeclarationBody, at: RowLocation, column: ColumnSpec): Json | undefined {
  const decl = body.declarations[at.declaration];
  if (!decl) return undefined;
  if (column.level === 'declaration') return decl;
  const holder: unknown = Array.isArray(decl.holders) ? decl.holders[at.holder] : undefined;
  return isObject(holder) ? holder : undefined;
}

/** A cell's text as the body holds it (not normalized): OUI/NON for booleans, codes joined with `/`. */
export function cellText(body: DeclarationBody, at: RowLocation, column: ColumnSpec): string {
  const owner = ownerOf(body, at, column);
  if (!owner) return '';
  if (column.json.kind === 'training_presence') return isObject(owner.training) ? 'OUI' : 'NON';
  let value: unknown = owner;
  for (const key of column.json.path.split('.')) value = isObject(value) ? value[key] : undefined;
  return textOf(value);
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? 'OUI' : 'NON';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('/');
  // A body the page did not build could hold anything: shown as its JSON, for the checker to judge.
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** The body value a typed text stands for in a column; undefined removes the field. */
function valueOf(column: ColumnSpec, text: string): unknown {
  switch (column.json.kind) {
    case 'boolean':
    case 'employer_presence':
      return text === 'OUI' ? true : text === 'NON' ? false : undefined;
    case 'codes': {
      const codes = text.split('/').filter((code) => code.trim() !== '');
      return codes.length ? codes : undefined;
    }
    default:
      return text === '' ? undefined : text;
  }
}

/** `target` with `key` set to `value`, or without it when value is undefined (a copy). */
function withField(target: Json, key: string, value: unknown): Json {
  const copy = { ...target };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/**
 * The body with one cell changed (a new body; the objects on the cell's path are copied, the rest is
 * shared). A declaration-level cell is the declaration's: every row of that declaration shows it.
 * PRESENCE_FORMATION = NON removes the declaration's training, OUI gives it one (empty if it had none).
 */
export function setCell(
  body: DeclarationBody,
  at: RowLocation,
  column: ColumnSpec,
  text: string,
): DeclarationBody {
  const decl = body.declarations[at.declaration];
  if (!decl) return body;
  let next: Json;
  if (column.json.kind === 'training_presence') {
    next = withField(
      decl,
      'training',
      text === 'OUI' ? (isObject(decl.training) ? decl.training : {}) : undefined,
    );
  } else if (column.level === 'declaration') {
    next = setPath(decl, column.json.path.split('.'), valueOf(column, text));
  } else {
    const holders = Array.isArray(decl.holders) ? [...(decl.holders as Json[])] : [];
    const holder = holders[at.holder];
    if (!isObject(holder)) return body;
    holders[at.holder] = setPath(holder, column.json.path.split('.'), valueOf(column, text));
    next = { ...decl, holders };
  }
  const declarations = [...body.declarations];
  declarations[at.declaration] = next;
  return { ...body, declarations };
}

function setPath(owner: Json, keys: string[], value: unknown): Json {
  const [head, ...rest] = keys as [string, ...string[]];
  if (rest.length === 0) return withField(owner, head, value);
  const child = isObject(owner[head]) ? owner[head] : {};
  // Removing a value under an absent object leaves the object absent.
  if (value === undefined && !isObject(owner[head])) return owner;
  return withField(owner, head, setPath(child, rest, value));
}
