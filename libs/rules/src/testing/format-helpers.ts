/**
 * Helpers for the unit tests of libs/rules: a fixed validation day, bodies to edit, CSV files built
 * by hand or from generateFile(), and issue lists stripped of their messages for exact comparison.
 * Test code only; never imported by production code.
 */
import { generateFile, validateCsv, validateDeclarations, type RulesEnvironment } from '../api';
import type { FileValidationResponse } from '../csv-validator';
import type { Issue } from '../issues';
import type { ReferenceLists } from '../references';
import { RequestError } from '../request';
import { SPEC_2026_02 } from '../format/v2026-02';
import type { Declarant, FileType } from '../format/types';
import { NIR_A, SIRET_A, testReferences, validBody } from './fixtures';

/** The validation day of every test unless stated: 22/11/2026, Europe/Paris. */
export const TODAY = 20261122;

export type Json = Record<string, unknown>;
export type Kind = readonly [FileType, Declarant];
export const KINDS: readonly Kind[] = [
  ['adf', 'employer'],
  ['adf', 'training_organization'],
  ['jdr', 'employer'],
  ['jdr', 'training_organization'],
];

export type TestEnv = RulesEnvironment & { randomHex?: (chars: number) => string };

export function testEnv(overrides: Partial<TestEnv> = {}): TestEnv {
  return { refs: testReferences(), today: TODAY, generationDay: TODAY, ...overrides };
}

/**
 * A valid body (validBody of the fixtures) that a test may edit freely. The fixtures alternate two
 * NIRs; holders from the third on get their own NIR so that no DUPLICATE_HOLDER warning appears.
 */
export function body(type: FileType, declarant: Declarant, count = 2): Json {
  const b = structuredClone(validBody(type, declarant, count));
  holders(b).forEach((h, i) => {
    if (i >= 2) h.nir = uniqueNir(i);
  });
  return b;
}

/** A possible, distinct NIR for each i < 998,001 (man born 05/1985 in the Yvelines). */
export function uniqueNir(i: number): string {
  const pad = (n: number): string => String(n).padStart(3, '0');
  return `1850578${pad(100 + Math.floor(i / 999))}${pad(1 + (i % 999))}`;
}

export function decl(b: Json, d = 0): Json {
  return (b.declarations as Json[])[d]!;
}
export function training(b: Json, d = 0): Json {
  return decl(b, d).training as Json;
}
export function holders(b: Json, d = 0): Json[] {
  return decl(b, d).holders as Json[];
}
export function holderOf(b: Json, h = 0, d = 0): Json {
  return holders(b, d)[h]!;
}

/** An issue without its message: what the tests compare exactly. */
export type Located = Omit<Issue, 'message'>;
export function located(issues: readonly Issue[]): Located[] {
  return issues.map(({ message: _message, ...rest }) => rest);
}

/** Runs validateDeclarations with the test environment. */
export function check(b: unknown, env: Partial<RulesEnvironment> = {}) {
  return validateDeclarations(b, testEnv(env));
}

/** Runs a function expected to throw a RequestError and returns it. */
export function requestError(fn: () => unknown): RequestError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RequestError) return e;
    throw e;
  }
  throw new Error('expected a RequestError, nothing was thrown');
}

// ---- CSV ---------------------------------------------------------------------------------------

export function columnsOf(type: FileType): string[] {
  return SPEC_2026_02.tables[type].columns.map((c) => c.name);
}

/** Index of a column, failing loudly on a typo. */
export function colIndex(type: FileType, name: string): number {
  const i = columnsOf(type).indexOf(name);
  if (i < 0) throw new Error(`no column ${name} in ${type}`);
  return i;
}

/** `|`-joined lines, each ended with `eol` (CRLF by default, like the official format). */
export function csvText(lines: readonly (readonly string[] | string)[], eol = '\r\n'): string {
  return lines.map((l) => (typeof l === 'string' ? l : l.join('|')) + eol).join('');
}

export function csvBytes(lines: readonly (readonly string[] | string)[], eol = '\r\n'): Buffer {
  return Buffer.from(csvText(lines, eol), 'utf8');
}

/** The data rows (cells) of a generated valid body of that kind. */
export function generatedRows(b: Json, env: Partial<RulesEnvironment> = {}): string[][] {
  const content = generateFile(b, testEnv(env)).content.toString('utf8');
  return parseCsv(content).slice(1);
}

/** Splits a CRLF file into cells (the writer never quotes, so `|` is always a separator). */
export function parseCsv(content: string): string[][] {
  const lines = content.split('\r\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.split('|'));
}

/** Sets cells by column name in a copy of a row. */
export function withCells(type: FileType, row: readonly string[], cells: Record<string, string>): string[] {
  const out = [...row];
  for (const [name, value] of Object.entries(cells)) out[colIndex(type, name)] = value;
  return out;
}

/** A file of `rows` under the official header of `type`. */
export function csvFile(type: FileType, rows: readonly (readonly string[])[], eol = '\r\n'): Buffer {
  return csvBytes([columnsOf(type), ...rows], eol);
}

export function checkCsv(
  content: Uint8Array,
  type: FileType,
  declarant: Declarant,
  extra: {
    strict_references?: boolean;
    filename?: string;
    refs?: ReferenceLists;
    today?: number;
    maxRows?: number;
    lang?: 'en' | 'fr';
  } = {},
): FileValidationResponse {
  const { refs, today, maxRows, lang, ...req } = extra;
  return validateCsv(
    content,
    { type, declarant, ...req },
    testEnv({ refs: refs ?? testReferences(), today: today ?? TODAY, maxRows, lang }),
  );
}

/**
 * One line of a valid adf file of a training organization, as the official file writes it (the
 * fix's tests: csv-fixer.spec.ts, fix-review.spec.ts), with some cells replaced.
 */
export function adfRow(overrides: Record<string, string> = {}): string {
  const cells: Record<string, string> = {
    ID_DECLARATION: 'SST-2026-09',
    REFERENCE_DECLARATION: 'Session SST',
    ID_UNIQUE_PARTENAIRE: 'SST-2026-09-E1',
    NOM_FORMATION: 'Sauveteur secouriste du travail',
    DATE_DEBUT_FORMATION: '14/09/2026',
    DATE_FIN_FORMATION: '15/09/2026',
    MODALITE_DISPENSE: 'PRESENTIEL',
    COMPETENCE_TRANSFERABLE: '115650/121885/400635',
    QUALIFICATION_FORMATEUR: 'PREVENTEUR',
    FORMATION_CERTIFIANTE: 'NON',
    CERTIFICATION_VISEE: '',
    DOMAINE_FORMATION: '42829/42817',
    SPECIALITE_FORMATION: '344r',
    NIR: NIR_A,
    NOM_TITULAIRE: 'DUPONT',
    PRESENCE_EMPLOYEUR: 'OUI',
    SIRET_EMPLOYEUR: SIRET_A,
    REFERENCE_EMPLOYEUR: 'CLIENT-42',
    DATE_DEBUT_VALIDITE: '15/09/2026',
    DATE_FIN_VALIDITE: '14/09/2028',
    ...overrides,
  };
  return columnsOf('adf')
    .map((c) => cells[c])
    .join('|');
}
