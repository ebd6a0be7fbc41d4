/**
 * INVALID_CHARACTER for every Unicode line terminator and control character (SERVICE.md §2.5: a
 * line break inside a value is refused; API.md §4): the whole Cc category — C0 U+0000–U+001F, DEL
 * U+007F, C1 U+0080–U+009F (NEL U+0085, CSI U+009B) — and U+2028 / U+2029, in JSON values
 * (validate and generate) and in uploaded CSV cells. The JSON normalizations must not strip such a
 * character from inside a value before the check (NIR and SIRET separators, RS codes), and no
 * message carries the value.
 */
import { generateFile } from './api';
import type { Normalization } from './json-rows';
import { hasForbiddenCharacter } from './values/text';
import { NIR_A, NIR_A_KEY, SIRET_A } from './testing/fixtures';
import {
  body,
  check,
  checkCsv,
  csvFile,
  decl,
  generatedRows,
  holderOf,
  located,
  requestError,
  testEnv,
  training,
  withCells,
  type Json,
  type Kind,
  type Located,
} from './testing/format-helpers';

/** One code point of each class, by name. */
const CLASSES: [name: string, char: string][] = [
  ['U+0000 NUL (C0)', '\u0000'],
  ['U+0009 tab (C0)', '\u0009'],
  ['U+000B vertical tab (C0)', '\u000b'],
  ['U+000C form feed (C0)', '\u000c'],
  ['U+001B escape (C0)', '\u001b'],
  ['U+001F unit separator (C0)', '\u001f'],
  ['U+007F DEL', '\u007f'],
  ['U+0080 (C1)', '\u0080'],
  ['U+0085 NEL (C1 line terminator)', '\u0085'],
  ['U+009B CSI (C1)', '\u009b'],
  ['U+009F APC (C1)', '\u009f'],
  ['U+2028 LINE SEPARATOR', '\u2028'],
  ['U+2029 PARAGRAPH SEPARATOR', '\u2029'],
];

/** Every forbidden code point: the Cc category and U+2028 / U+2029. */
const ALL_FORBIDDEN: number[] = [
  ...Array.from({ length: 0x20 }, (_, i) => i),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x2028,
  0x2029,
];

/** Any of them in a file, once its CRLF line ends are taken out. */
// eslint-disable-next-line no-control-regex
const CONTROL_IN_FILE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const H0 = 'declarations[0].holders[0]';
const D0 = 'declarations[0]';
const T0 = 'declarations[0].training';
const ADF_E: Kind = ['adf', 'employer'];
const ADF_OF: Kind = ['adf', 'training_organization'];
const JDR_OF: Kind = ['jdr', 'training_organization'];

/** The fixtures' ISO dates are all rewritten (DATE_REFORMATTED): the other normalizations. */
const notDates = (list: readonly Normalization[]) => list.filter((n) => n.rule !== 'DATE_REFORMATTED');
const hex = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

describe('hasForbiddenCharacter: the Cc category and U+2028 / U+2029', () => {
  it('refuses every one of them, alone and inside a value', () => {
    for (const cp of ALL_FORBIDDEN) {
      const c = String.fromCharCode(cp);
      expect([hex(c), hasForbiddenCharacter(c)]).toEqual([hex(c), true]);
      expect([hex(c), hasForbiddenCharacter(`DUP${c}ONT`)]).toEqual([hex(c), true]);
    }
  });

  it('accepts the other code points of the BMP below U+3000 but |, the format and invisible ones', () => {
    const forbidden = new Set([...ALL_FORBIDDEN, 0x7c]);
    // The wider classes (format, default-ignorable, noncharacters…) are forbidden-characters.spec.ts's.
    const invisible = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
    for (let cp = 0; cp < 0x3000; cp++) {
      if (forbidden.has(cp) || (cp >= 0xd800 && cp <= 0xdfff)) continue;
      const c = String.fromCharCode(cp);
      if (invisible.test(c)) continue;
      // After a letter: a combining mark is refused only at the start of a value.
      if (hasForbiddenCharacter(`A${c}`)) throw new Error(`${hex(c)} is refused`);
    }
    // Neighbours of the ranges, and the look-alike spaces that are not line terminators.
    for (const ok of ['\u0020', '\u007e', '\u00a0', '\u00a0', '\u2027', '\u202f', '\u3000', '😀']) {
      expect(hasForbiddenCharacter(ok)).toBe(false);
    }
  });
});

// ---- JSON values --------------------------------------------------------------------------------

interface Target {
  name: string;
  kind: Kind;
  /** Puts `c` inside the value; `field` and `column` are where the error must point. */
  set: (b: Json, c: string) => void;
  field: string;
  column: string;
  /** Rows of the request counted invalid (a declaration-level value makes every row invalid). */
  rowsInvalid: number;
}

const TARGETS: Target[] = [
  {
    name: 'birth_name',
    kind: ADF_E,
    set: (b, c) => (holderOf(b).birth_name = `DUP${c}ONT`),
    field: `${H0}.birth_name`,
    column: 'NOM_TITULAIRE',
    rowsInvalid: 1,
  },
  {
    name: 'training title',
    kind: ADF_OF,
    set: (b, c) => (training(b).name = `Sauveteur${c}secouriste du travail`),
    field: `${T0}.name`,
    column: 'NOM_FORMATION',
    rowsInvalid: 2,
  },
  {
    name: 'declaration reference',
    kind: ADF_E,
    set: (b, c) => (decl(b).reference = `Session SST${c}septembre 2026`),
    field: `${D0}.reference`,
    column: 'REFERENCE_DECLARATION',
    rowsInvalid: 2,
  },
  {
    name: 'declaration id',
    kind: JDR_OF,
    set: (b, c) => (decl(b).id = `SST-2026${c}-09`),
    field: `${D0}.id`,
    column: 'ID_DECLARATION',
    rowsInvalid: 2,
  },
  {
    name: 'unique id',
    kind: JDR_OF,
    set: (b, c) => (holderOf(b).unique_id = `SST-2026-09${c}E0`),
    field: `${H0}.unique_id`,
    column: 'ID_UNIQUE_PARTENAIRE',
    rowsInvalid: 1,
  },
  {
    name: 'NIR with separators (SEPARATORS_REMOVED must not take the character)',
    kind: ADF_E,
    set: (b, c) => (holderOf(b).nir = `2 55 08 ${c}14 168 025`),
    field: `${H0}.nir`,
    column: 'NIR',
    rowsInvalid: 1,
  },
  {
    name: 'NIR with its key and separators (NIR_KEY_REMOVED must not apply)',
    kind: ADF_E,
    set: (b, c) => (holderOf(b).nir = `${NIR_A.slice(0, 7)}${c}${NIR_A.slice(7)}${NIR_A_KEY}`),
    field: `${H0}.nir`,
    column: 'NIR',
    rowsInvalid: 1,
  },
  {
    name: 'NIR without separators',
    kind: ADF_E,
    set: (b, c) => (holderOf(b).nir = `${NIR_A.slice(0, 5)}${c}${NIR_A.slice(5)}`),
    field: `${H0}.nir`,
    column: 'NIR',
    rowsInvalid: 1,
  },
  {
    name: 'SIRET with separators',
    kind: ADF_OF,
    set: (b, c) =>
      (holderOf(b).employer_siret = `${SIRET_A.slice(0, 3)} ${SIRET_A.slice(3, 6)}${c}${SIRET_A.slice(6)}`),
    field: `${H0}.employer_siret`,
    column: 'SIRET_EMPLOYEUR',
    rowsInvalid: 1,
  },
  {
    name: 'RS code (CODE_NORMALIZED must not take the character)',
    kind: JDR_OF,
    set: (b, c) => {
      Object.assign(training(b), { certifying: true, certification_code: `rs${c}6550` });
      delete training(b).formacodes;
      delete training(b).nsf_codes;
    },
    field: `${T0}.certification_code`,
    column: 'CERTIFICATION_VISEE',
    rowsInvalid: 2,
  },
  {
    name: 'an element of a code list',
    kind: ADF_OF,
    set: (b, c) => (training(b).formacodes = ['42829', `428${c}17`]),
    field: `${T0}.formacodes`,
    column: 'DOMAINE_FORMATION',
    rowsInvalid: 2,
  },
  {
    name: 'a date',
    kind: ADF_E,
    set: (b, c) => (holderOf(b).validity_start = `2026-09${c}-15`),
    field: `${H0}.validity_start`,
    column: 'DATE_DEBUT_VALIDITE',
    rowsInvalid: 1,
  },
  {
    name: 'an enumerated value',
    kind: ADF_E,
    set: (b, c) => (training(b).delivery_mode = `PRES${c}ENTIEL`),
    field: `${T0}.delivery_mode`,
    column: 'MODALITE_DISPENSE',
    rowsInvalid: 2,
  },
  {
    name: 'a proof URL',
    kind: JDR_OF,
    set: (b, c) => (holderOf(b).proof_url = `https://certificats.example.org/sst${c}/1`),
    field: `${H0}.proof_url`,
    column: 'LIEN_PREUVE',
    rowsInvalid: 1,
  },
];

describe.each(TARGETS)('JSON: a forbidden character inside $name', (target) => {
  it.each(CLASSES)('%s → INVALID_CHARACTER (validate and generate), value never echoed', (_name, c) => {
    const [type, declarant] = target.kind;
    const b = body(type, declarant);
    target.set(b, c);
    const expected: Located[] = [
      { row: 2, column: target.column, field: target.field, code: 'INVALID_CHARACTER' },
    ];

    for (const lang of ['en', 'fr'] as const) {
      const r = check(b, { lang });
      expect(located(r.errors)).toEqual(expected);
      expect(r.valid).toBe(false);
      expect(r.rows_invalid).toBe(target.rowsInvalid);
      // No normalization was applied to the refused value (nothing stripped before the check).
      expect(
        r.normalizations.filter((n) => n.field === target.field || n.field.startsWith(`${target.field}[`)),
      ).toEqual([]);
      const text = JSON.stringify(r);
      expect(text).not.toContain(JSON.stringify(c).slice(1, -1));
      // The message names the character by its code point (not personal data), never the value.
      expect(r.errors[0]!.message).toContain(hex(c));
      expect(r.errors[0]!.message).toMatch(
        lang === 'en' ? /cannot hold|would split the line/ : /ne peut pas contenir|couperait la ligne/,
      );

      const err = requestError(() => generateFile(b, testEnv({ lang })));
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(located((err.details as { errors: never[] }).errors)).toEqual(expected);
      const errText = JSON.stringify({ message: err.message, details: err.details });
      expect(errText).not.toContain(JSON.stringify(c).slice(1, -1));
    }
  });
});

describe('JSON: the error message never holds the value', () => {
  it.each(CLASSES)('%s in a birth name, a training title and a reference at once', (_name, c) => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = `DUP${c}ONTEL`;
    training(b).name = `Formation${c}ZQXW`;
    decl(b).reference = `Ref${c}KJHG`;
    for (const lang of ['en', 'fr'] as const) {
      const r = check(b, { lang });
      expect(r.errors.map((e) => e.code)).toEqual([
        'INVALID_CHARACTER',
        'INVALID_CHARACTER',
        'INVALID_CHARACTER',
      ]);
      for (const e of r.errors) {
        for (const fragment of ['DUP', 'ONTEL', 'ZQXW', 'KJHG', c]) expect(e.message).not.toContain(fragment);
      }
    }
  });
});

describe('JSON: at either end of a value', () => {
  // String.prototype.trim takes CR, LF, tab, VT, FF, U+2028 and U+2029 for white space: at either
  // end they are trimmed like spaces (WHITESPACE_TRIMMED; "a trailing line break is only
  // whitespace"), and the file never holds them. The other control characters are not white space.
  it.each(['\t', '\n', '\r\n', '\u000b', '\u000c', '\u2028', '\u2029'])('%j is trimmed white space', (c) => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = `${c}DUPONT${c}`;
    const r = check(b);
    expect(r.errors).toEqual([]);
    expect(notDates(r.normalizations)).toEqual([
      { field: `${H0}.birth_name`, column: 'NOM_TITULAIRE', rule: 'WHITESPACE_TRIMMED' },
    ]);
    const content = generateFile(b, testEnv()).content.toString('utf8');
    expect(content.replace(/\r\n/g, '')).not.toMatch(CONTROL_IN_FILE);
  });

  it.each(['\u0000', '\u001b', '\u007f', '\u0085', '\u009b'])('%j is refused', (c) => {
    for (const value of [`DUPONT${c}`, `${c}DUPONT`, `  DUPONT ${c} `]) {
      const b = body('adf', 'employer');
      holderOf(b).birth_name = value;
      expect(located(check(b).errors)).toEqual([
        { row: 2, column: 'NOM_TITULAIRE', field: `${H0}.birth_name`, code: 'INVALID_CHARACTER' },
      ]);
    }
  });

  it('a NIR or SIRET ending with a line break is trimmed, one with an inner line break is refused', () => {
    const b = body('adf', 'training_organization');
    holderOf(b, 0).nir = `2 55 08 14 168 025\r\n`;
    holderOf(b, 1).nir = `1 85 05\n78 006 084`;
    holderOf(b, 0).employer_siret = `${SIRET_A}\u2028`;
    holderOf(b, 1).employer_siret = `200 056\u2028679 00018`;
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 3, column: 'NIR', field: 'declarations[0].holders[1].nir', code: 'INVALID_CHARACTER' },
      {
        row: 3,
        column: 'SIRET_EMPLOYEUR',
        field: 'declarations[0].holders[1].employer_siret',
        code: 'INVALID_CHARACTER',
      },
    ]);
    expect(notDates(r.normalizations)).toEqual([
      { field: `${H0}.nir`, column: 'NIR', rule: 'WHITESPACE_TRIMMED' },
      { field: `${H0}.nir`, column: 'NIR', rule: 'SEPARATORS_REMOVED' },
      { field: `${H0}.employer_siret`, column: 'SIRET_EMPLOYEUR', rule: 'WHITESPACE_TRIMMED' },
    ]);
  });
});

describe('JSON: the repro of the review', () => {
  it('birth_name "DUP\\u0085ONT" is refused and no file is written', () => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = 'DUP\u0085ONT';
    const err = requestError(() => generateFile(b, testEnv()));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(located((err.details as { errors: never[] }).errors)).toEqual([
      { row: 2, column: 'NOM_TITULAIRE', field: `${H0}.birth_name`, code: 'INVALID_CHARACTER' },
    ]);
  });
});

// ---- CSV cells ----------------------------------------------------------------------------------

interface CsvTarget {
  name: string;
  kind: Kind;
  /** A declaration-level column holds the same cell on every row of the declaration. */
  column: string;
  level?: 'declaration';
  /** The cell, with `c` inside. */
  cell: (c: string) => string;
}

const CSV_TARGETS: CsvTarget[] = [
  { name: 'a birth name', kind: ADF_E, column: 'NOM_TITULAIRE', cell: (c) => `DUP${c}ONT` },
  {
    name: 'a training title',
    kind: ADF_OF,
    column: 'NOM_FORMATION',
    level: 'declaration',
    cell: (c) => `Sauveteur${c}secouriste`,
  },
  {
    name: 'a declaration reference',
    kind: ADF_E,
    column: 'REFERENCE_DECLARATION',
    level: 'declaration',
    cell: (c) => `Session${c}SST`,
  },
  { name: 'a NIR', kind: ADF_E, column: 'NIR', cell: (c) => `${NIR_A.slice(0, 6)}${c}${NIR_A.slice(6)}` },
  { name: 'a date', kind: JDR_OF, column: 'DATE_DEBUT_VALIDITE', cell: (c) => `15/09${c}/2026` },
  // The last cell of a row: only a CR right before the LF is the line ending.
  {
    name: 'the last cell, at its end',
    kind: ADF_E,
    column: 'DATE_FIN_VALIDITE',
    cell: (c) => `14/09/2028${c}`,
  },
  { name: 'a cell, at its start', kind: ADF_E, column: 'NOM_TITULAIRE', cell: (c) => `${c}DUPONT` },
];

describe.each(CSV_TARGETS)('CSV: a forbidden character in $name', (target) => {
  it.each(CLASSES)('%s → INVALID_CHARACTER on that cell, the line is not split', (_name, c) => {
    const [type, declarant] = target.kind;
    const rows = generatedRows(body(type, declarant, 2));
    rows[0] = withCells(type, rows[0]!, { [target.column]: target.cell(c) });
    if (target.level === 'declaration')
      rows[1] = withCells(type, rows[1]!, { [target.column]: target.cell(c) });
    for (const eol of ['\r\n', '\n']) {
      const r = checkCsv(csvFile(type, rows, eol), type, declarant);
      expect(located(r.errors)).toEqual([{ row: 2, column: target.column, code: 'INVALID_CHARACTER' }]);
      expect(r.rows_total).toBe(2);
      expect(r.rows_invalid).toBe(target.level === 'declaration' ? 2 : 1);
      expect(JSON.stringify(r)).not.toContain(JSON.stringify(c).slice(1, -1));
    }
  });
});

describe('CSV: the framing is unchanged', () => {
  it('CRLF and LF line ends are line ends; U+0085, U+2028 and U+2029 do not end a line', () => {
    const rows = generatedRows(body('adf', 'employer', 2));
    const crlf = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(crlf.valid).toBe(true);
    expect(crlf.rows_total).toBe(2);
    const lf = checkCsv(csvFile('adf', rows, '\n'), 'adf', 'employer');
    expect(lf.valid).toBe(true);
    expect(lf.warnings.map((w) => w.code)).toEqual(['LF_LINE_ENDINGS']);
    for (const eol of ['\u0085', '\u2028', '\u2029', '\r\u0085']) {
      const r = checkCsv(csvFile('adf', rows, eol), 'adf', 'employer');
      // One single line: the header runs on into the data, so the header is wrong.
      expect(located(r.errors)).toEqual([{ row: 1, column: null, code: 'INVALID_HEADER' }]);
    }
  });

  it('a generated file holds no control character apart from its CRLF line ends', () => {
    const b = body('jdr', 'training_organization', 3);
    holderOf(b).birth_name = '\u2028 DUPONT \r\n';
    const content = generateFile(b, testEnv()).content.toString('utf8');
    expect(content.endsWith('\r\n')).toBe(true);
    expect(content.replace(/\r\n/g, '')).not.toMatch(CONTROL_IN_FILE);
  });
});
