/**
 * INVALID_CHARACTER for characters that make a value look right and be another (issue 19, findings
 * 6 and 7; values/text.ts): format and other default-ignorable characters (zero-width, BOM, bidi
 * controls, soft hyphen, tags, Hangul fillers), lone surrogates, U+FFFD (text damaged before
 * ppfile), noncharacters, private use, and a value that starts with a combining mark. The portal
 * matches the birth name to the NIR: an invisible character makes another name. Through both paths —
 * a JSON body (validate and generate, naming the field) and an uploaded CSV (naming the row and the
 * column) — with the code point in the message, in both languages, never the value. Also: the trim
 * of JSON values (a BOM is not white space), formula detection on NFKC, BOMs and broken UTF-8 in a
 * CSV, and the request's own strings.
 */
import { generateFile } from './api';
import { parseJsonBody } from './request';
import { hasForbiddenCharacter } from './values/text';
import { NIR_A, SIRET_A } from './testing/fixtures';
import {
  body,
  check,
  checkCsv,
  columnsOf,
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
  type Located,
} from './testing/format-helpers';

const H0 = 'declarations[0].holders[0]';
const BIRTH_NAME: Located = {
  row: 2,
  column: 'NOM_TITULAIRE',
  field: `${H0}.birth_name`,
  code: 'INVALID_CHARACTER',
};
const notDates = <T extends { rule: string }>(list: readonly T[]) =>
  list.filter((n) => n.rule !== 'DATE_REFORMATTED');

/** One character of each class, by name, with the code point the message must give. */
const CLASSES: [name: string, char: string, codePoint: string][] = [
  ['zero-width space', '\u200b', 'U+200B'],
  ['zero-width non-joiner', '\u200c', 'U+200C'],
  ['zero-width joiner', '\u200d', 'U+200D'],
  ['word joiner', '\u2060', 'U+2060'],
  ['BOM (zero-width no-break space)', '\ufeff', 'U+FEFF'],
  ['right-to-left override', '\u202e', 'U+202E'],
  ['left-to-right mark', '\u200e', 'U+200E'],
  ['left-to-right isolate', '\u2066', 'U+2066'],
  ['soft hyphen', '\u00ad', 'U+00AD'],
  ['tag LATIN CAPITAL LETTER A', '\u{e0041}', 'U+E0041'],
  ['cancel tag', '\u{e007f}', 'U+E007F'],
  ['Arabic letter mark', '\u061c', 'U+061C'],
  ['Hangul choseong filler', '\u115f', 'U+115F'],
  ['Hangul jungseong filler', '\u1160', 'U+1160'],
  ['Hangul filler', '\u3164', 'U+3164'],
  ['halfwidth Hangul filler', '\uffa0', 'U+FFA0'],
  ['combining grapheme joiner', '\u034f', 'U+034F'],
  ['variation selector 16', '\ufe0f', 'U+FE0F'],
  ['lone high surrogate', '\ud800', 'U+D800'],
  ['lone low surrogate', '\udfff', 'U+DFFF'],
  ['replacement character (damaged text)', '\ufffd', 'U+FFFD'],
  ['noncharacter U+FFFF', '\uffff', 'U+FFFF'],
  ['noncharacter U+FFFE', '\ufffe', 'U+FFFE'],
  ['noncharacter U+FDD0', '\ufdd0', 'U+FDD0'],
  ['noncharacter U+FDEF', '\ufdef', 'U+FDEF'],
  ['noncharacter U+1FFFF', '\u{1ffff}', 'U+1FFFF'],
  ['noncharacter U+10FFFE', '\u{10fffe}', 'U+10FFFE'],
  ['private use U+E000', '\ue000', 'U+E000'],
  ['private use U+F0000', '\u{f0000}', 'U+F0000'],
];

/** Characters a CSV can carry: a lone surrogate has no UTF-8 form (its bytes are INVALID_ENCODING below). */
const CSV_CLASSES = CLASSES.filter(([, c]) => !/^[\ud800-\udfff]$/.test(c));

/** Values starting with a combining mark, as given (after the JSON trim and NFC they still do). */
const LEADING_MARKS: [name: string, value: string, codePoint: string][] = [
  ['an acute accent before the name', '\u0301ZORGLUB', 'U+0301'],
  ['combining marks only', '\u0301\u0308', 'U+0301'],
  // NFC puts the cedilla (combining class 202) before the acute (230): the first mark then is U+0327.
  ['combining marks only, reordered by NFC', '\u0301\u0327', 'U+0327'],
  ['a cedilla after a space that is trimmed', '  \u0327ZORGLUB', 'U+0327'],
  ['an enclosing circle', '\u20ddZORGLUB', 'U+20DD'],
];

/** The value and the character are never in a response: only the column, the field and the code point. */
function expectNoEcho(response: unknown, ...fragments: string[]): void {
  const text = JSON.stringify(response);
  for (const f of fragments) {
    expect(text).not.toContain(f);
    expect(text).not.toContain(JSON.stringify(f).slice(1, -1));
  }
}

// ---- JSON bodies ----------------------------------------------------------------------------------

describe.each(CLASSES)('JSON: %s in a birth name', (_name, c, codePoint) => {
  it.each([
    ['inside', `ZORG${c}LUB`],
    ['at the start', `${c}ZORGLUB`],
    ['at the end', `ZORGLUB${c}`],
    ['alone', c],
    ['between spaces at the end', `ZORGLUB ${c} `],
  ])('%s → INVALID_CHARACTER on declarations[0].holders[0].birth_name, no file', (_where, value) => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = value;
    for (const lang of ['en', 'fr'] as const) {
      const r = check(b, { lang });
      expect(located(r.errors)).toEqual([BIRTH_NAME]);
      expect(r.valid).toBe(false);
      expect(r.rows_invalid).toBe(1);
      // Nothing but the spaces around it was taken from the refused value before the check.
      expect(
        r.normalizations.filter((n) => n.field === BIRTH_NAME.field && n.rule !== 'WHITESPACE_TRIMMED'),
      ).toEqual([]);
      expect(r.errors[0]!.message).toContain(`NOM_TITULAIRE ${lang === 'en' ? 'contains' : 'contient'}`);
      expect(r.errors[0]!.message).toContain(codePoint);
      expectNoEcho(r, 'ZORG', 'LUB', c);

      const err = requestError(() => generateFile(b, testEnv({ lang })));
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(located((err.details as { errors: never[] }).errors)).toEqual([BIRTH_NAME]);
      expectNoEcho({ message: err.message, details: err.details }, 'ZORG', 'LUB', c);
    }
  });
});

describe('JSON: a value that starts with a combining mark', () => {
  it.each(LEADING_MARKS)('%s → INVALID_CHARACTER naming the mark', (_name, value, codePoint) => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = value;
    for (const lang of ['en', 'fr'] as const) {
      const r = check(b, { lang });
      expect(located(r.errors)).toEqual([BIRTH_NAME]);
      expect(r.errors[0]!.message).toBe(
        lang === 'en'
          ? `NOM_TITULAIRE starts with ${codePoint}, a combining mark with no letter before it.`
          : `NOM_TITULAIRE commence par ${codePoint}, un signe combinant sans lettre avant lui.`,
      );
      expect(() => generateFile(b, testEnv())).toThrow();
    }
  });

  it('a mark after its letter is joined by NFC and accepted; after a space it is kept as it is', () => {
    const b = body('adf', 'employer', 3);
    holderOf(b, 0).birth_name = 'E\u0301LODIE';
    holderOf(b, 1).birth_name = 'DU \u0301PONT';
    holderOf(b, 2).birth_name = 'ZOE\u0308';
    const r = check(b);
    expect(r.errors).toEqual([]);
    expect(notDates(r.normalizations)).toEqual([
      { field: `${H0}.birth_name`, column: 'NOM_TITULAIRE', rule: 'UNICODE_NFC' },
      { field: 'declarations[0].holders[2].birth_name', column: 'NOM_TITULAIRE', rule: 'UNICODE_NFC' },
    ]);
  });
});

describe('JSON: the review repro — broken text becomes U+FFFD or stays a lone surrogate', () => {
  /** The body as bytes, decoded as the gateway decodes it (invalid UTF-8 → U+FFFD, never an exception). */
  function decoded(birthName: Buffer): unknown {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = '@@NAME@@';
    const [before, after] = JSON.stringify(b).split('@@NAME@@') as [string, string];
    const bytes = Buffer.concat([Buffer.from(before), birthName, Buffer.from(after)]);
    return parseJsonBody(bytes.toString('utf8'), 'en');
  }

  it.each([
    ['C0 AF (overlong "/")', [0xc0, 0xaf]],
    ['ED A0 80 (a surrogate encoded in UTF-8)', [0xed, 0xa0, 0x80]],
    ['E9 (Latin-1 "é")', [0xe9]],
    ['EF BF BD (U+FFFD itself)', [0xef, 0xbf, 0xbd]],
  ])('bytes %s inside the name → INVALID_CHARACTER U+FFFD on the field', (_name, bytes) => {
    const raw = decoded(Buffer.concat([Buffer.from('DU'), Buffer.from(bytes), Buffer.from('PONT')]));
    const r = check(raw);
    expect(located(r.errors)).toEqual([BIRTH_NAME]);
    expect(r.errors[0]!.message).toBe(
      'NOM_TITULAIRE contains U+FFFD, the replacement character: the text was damaged before it reached ppfile (bytes that were not UTF-8); send the original text.',
    );
    expect(check(raw, { lang: 'fr' }).errors[0]!.message).toBe(
      "NOM_TITULAIRE contient U+FFFD, le caractère de remplacement : le texte a été abîmé avant d'arriver à ppfile (des octets qui n'étaient pas de l'UTF-8) ; envoyez le texte d'origine.",
    );
    expect(requestError(() => generateFile(raw, testEnv())).code).toBe('VALIDATION_FAILED');
  });

  it('"DU\\ud800PONT" (a lone surrogate escape) → INVALID_CHARACTER naming U+D800, no file', () => {
    const raw = parseJsonBody(
      JSON.stringify(body('adf', 'employer')).replace('"DUPONT"', '"DU\\ud800PONT"'),
      'en',
    ) as Json;
    expect(holderOf(raw).birth_name).toBe('DU\ud800PONT');
    const r = check(raw);
    expect(located(r.errors)).toEqual([BIRTH_NAME]);
    expect(r.errors[0]!.message).toBe(
      'NOM_TITULAIRE contains a lone surrogate (U+D800), half of a character: the text was damaged before it reached ppfile; send the original text.',
    );
    expect(check(raw, { lang: 'fr' }).errors[0]!.message).toBe(
      "NOM_TITULAIRE contient un demi-codet isolé (U+D800), une moitié de caractère : le texte a été abîmé avant d'arriver à ppfile ; envoyez le texte d'origine.",
    );
    const err = requestError(() => generateFile(raw, testEnv()));
    expect(err.code).toBe('VALIDATION_FAILED');
  });
});

describe('JSON: every column kind, the normalizations leave the character for the check', () => {
  const Z = '\u200b';
  it.each<[string, (b: Json) => void, Located]>([
    [
      'a NIR with separators (SEPARATORS_REMOVED would take a BOM: `\\s` matches it)',
      (b) => (holderOf(b).nir = `2 55 08\ufeff14 168 025`),
      { row: 2, column: 'NIR', field: `${H0}.nir`, code: 'INVALID_CHARACTER' },
    ],
    [
      'a SIRET with separators',
      (b) =>
        (holderOf(b).employer_siret =
          `${SIRET_A.slice(0, 3)} ${SIRET_A.slice(3, 6)}\ufeff${SIRET_A.slice(6)}`),
      { row: 2, column: 'SIRET_EMPLOYEUR', field: `${H0}.employer_siret`, code: 'INVALID_CHARACTER' },
    ],
    [
      'a SIRET that is only a BOM (not taken for an empty SIRET)',
      (b) => (holderOf(b).employer_siret = '\ufeff'),
      { row: 2, column: 'SIRET_EMPLOYEUR', field: `${H0}.employer_siret`, code: 'INVALID_CHARACTER' },
    ],
    [
      'an RS code (CODE_NORMALIZED would take a BOM)',
      (b) => {
        Object.assign(training(b), { certifying: true, certification_code: 'rs\ufeff6550' });
        delete training(b).formacodes;
        delete training(b).nsf_codes;
      },
      {
        row: 2,
        column: 'CERTIFICATION_VISEE',
        field: 'declarations[0].training.certification_code',
        code: 'INVALID_CHARACTER',
      },
    ],
    [
      'a date',
      (b) => (holderOf(b).validity_start = `2026-09-15${Z}`),
      { row: 2, column: 'DATE_DEBUT_VALIDITE', field: `${H0}.validity_start`, code: 'INVALID_CHARACTER' },
    ],
    [
      'an enumerated value',
      (b) => (training(b).delivery_mode = `presentiel\ufeff`),
      {
        row: 2,
        column: 'MODALITE_DISPENSE',
        field: 'declarations[0].training.delivery_mode',
        code: 'INVALID_CHARACTER',
      },
    ],
    [
      'a code list element',
      (b) => (training(b).formacodes = ['42829', `\u00ad42817`]),
      {
        row: 2,
        column: 'DOMAINE_FORMATION',
        field: 'declarations[0].training.formacodes',
        code: 'INVALID_CHARACTER',
      },
    ],
    [
      'a training title',
      (b) => (training(b).name = `Sauveteur secouriste\u202e du travail`),
      { row: 2, column: 'NOM_FORMATION', field: 'declarations[0].training.name', code: 'INVALID_CHARACTER' },
    ],
    [
      'a declaration id',
      (b) => (decl(b).id = `\ufeffSST-2026-09`),
      { row: 2, column: 'ID_DECLARATION', field: 'declarations[0].id', code: 'INVALID_CHARACTER' },
    ],
  ])('%s', (_name, set, expected) => {
    const b = body('adf', 'training_organization');
    set(b);
    const r = check(b);
    expect(located(r.errors)).toEqual([expected]);
    expect(r.normalizations.filter((n) => n.field.startsWith(expected.field!))).toEqual([]);
  });

  it('a NIR given with a valid key and a zero-width space keeps both (no NIR_KEY_REMOVED)', () => {
    const b = body('adf', 'employer');
    holderOf(b).nir = `${NIR_A}${Z}`;
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'NIR', field: `${H0}.nir`, code: 'INVALID_CHARACTER' },
    ]);
  });
});

describe('JSON: NFC neither removes nor hides a forbidden character', () => {
  it('every forbidden code point stays in the value through NFC, after a letter and first', () => {
    const odd: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const c = String.fromCodePoint(cp);
      if (!hasForbiddenCharacter(`A${c}`)) continue;
      for (const value of [`A${c}B`, `${c}A`, `E\u0301${c}`]) {
        const nfc = value.normalize('NFC');
        if (!nfc.includes(c) || !hasForbiddenCharacter(nfc)) odd.push(cp.toString(16));
      }
    }
    expect(odd).toEqual([]);
  });
});

describe('JSON: the trim removes Unicode white space only', () => {
  it.each(['\ufeffDUPONT', 'DUPONT\ufeff', ' \ufeff DUPONT', '\ufeff'])(
    '%j: a BOM is not trimmed, it is refused',
    (v) => {
      const b = body('adf', 'employer');
      holderOf(b).birth_name = v;
      const r = check(b);
      expect(located(r.errors)).toEqual([BIRTH_NAME]);
      expect(r.errors[0]!.message).toContain('U+FEFF');
      expect(r.normalizations.filter((n) => n.field === BIRTH_NAME.field)).toEqual(
        v.startsWith(' ')
          ? [{ field: BIRTH_NAME.field, column: 'NOM_TITULAIRE', rule: 'WHITESPACE_TRIMMED' }]
          : [],
      );
    },
  );

  it.each([
    ' DUPONT ',
    '\r\nDUPONT\r\n',
    '\tDUPONT\t',
    '\u00a0DUPONT\u3000',
    '\u2028DUPONT\u2029',
    '\u2003 DUPONT',
  ])('%j: CR, LF, tab and spaces at either end are still trimmed', (v) => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = v;
    const r = check(b);
    expect(r.errors).toEqual([]);
    expect(notDates(r.normalizations)).toEqual([
      { field: BIRTH_NAME.field, column: 'NOM_TITULAIRE', rule: 'WHITESPACE_TRIMMED' },
    ]);
    const content = generateFile(b, testEnv()).content.toString('utf8');
    expect(content).toContain('|DUPONT|');
  });
});

// ---- formulas -------------------------------------------------------------------------------------

describe('formula_policy: the first character, NFKC-folded, after leading white space', () => {
  const FORMULA: Located = {
    row: 2,
    column: 'NOM_TITULAIRE',
    field: BIRTH_NAME.field,
    code: 'FORMULA_NOT_ALLOWED',
  };
  it.each([
    ['fullwidth =', '\uff1d1+1'],
    ['fullwidth +', '\uff0b1'],
    ['fullwidth -', '\uff0d1'],
    ['fullwidth @', '\uff20SUM(A1)'],
    ['small +', '\ufe621'],
    ['small -', '\ufe631'],
    ['small =', '\ufe661+1'],
    ['small @', '\ufe6bSUM(A1)'],
    ['= after spaces', '  =1+1'],
  ])('%s: an error under reject, a warning under warn, nothing under allow', (_name, value) => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = value;
    const reject = check(b);
    expect(located(reject.errors)).toEqual([FORMULA]);
    expect(requestError(() => generateFile(b, testEnv())).code).toBe('VALIDATION_FAILED');

    b.options = { formula_policy: 'warn' };
    const warn = check(b);
    expect(warn.errors).toEqual([]);
    expect(located(warn.warnings)).toEqual([FORMULA]);

    b.options = { formula_policy: 'allow' };
    const allow = check(b);
    expect(allow.errors).toEqual([]);
    expect(allow.warnings).toEqual([]);
  });

  it.each(['\u200b=1+1', '\ufeff=1+1', '\u2060+1', '\u00ad-1'])(
    '%j: refused under every policy (INVALID_CHARACTER, whatever follows)',
    (value) => {
      for (const formula_policy of ['reject', 'warn', 'allow']) {
        const b = body('adf', 'employer');
        holderOf(b).birth_name = value;
        b.options = { formula_policy };
        const r = check(b);
        expect(located(r.errors)).toEqual([BIRTH_NAME]);
        expect(r.valid).toBe(false);
        expect(() => generateFile(b, testEnv())).toThrow();
      }
    },
  );

  it('an uploaded CSV gets the warning for a fullwidth = and for a = after a space', () => {
    const rows = generatedRows(body('adf', 'employer', 2));
    rows[0] = withCells('adf', rows[0]!, { NOM_TITULAIRE: '\uff1d1+1' });
    rows[1] = withCells('adf', rows[1]!, { NOM_TITULAIRE: ' =1+1' });
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(r.errors).toEqual([]);
    expect(located(r.warnings)).toEqual([
      { row: 2, column: 'NOM_TITULAIRE', code: 'FORMULA_NOT_ALLOWED' },
      { row: 3, column: 'NOM_TITULAIRE', code: 'FORMULA_NOT_ALLOWED' },
    ]);
  });
});

// ---- uploaded CSV files ---------------------------------------------------------------------------

describe.each(CSV_CLASSES)('CSV: %s in a cell', (_name, c, codePoint) => {
  it.each([
    ['inside a birth name', 'NOM_TITULAIRE', `ZORG${c}LUB`],
    ['at the start of a birth name', 'NOM_TITULAIRE', `${c}ZORGLUB`],
    ['at the end of the last cell', 'DATE_FIN_VALIDITE', `14/09/2028${c}`],
    ['in a NIR', 'NIR', `${NIR_A.slice(0, 6)}${c}${NIR_A.slice(6)}`],
  ])('%s → INVALID_CHARACTER on that row and column', (_where, column, cell) => {
    const rows = generatedRows(body('adf', 'employer', 2));
    rows[0] = withCells('adf', rows[0]!, { [column]: cell });
    for (const lang of ['en', 'fr'] as const) {
      for (const eol of ['\r\n', '\n']) {
        const r = checkCsv(csvFile('adf', rows, eol), 'adf', 'employer', { lang });
        expect(located(r.errors)).toEqual([{ row: 2, column, code: 'INVALID_CHARACTER' }]);
        expect(r.file_rejected).toBe(false);
        expect(r.rows_invalid).toBe(1);
        expect(r.errors[0]!.message).toContain(codePoint);
        expectNoEcho(r, 'ZORG', 'LUB', c);
      }
    }
  });
});

describe('CSV: a cell that starts with a combining mark', () => {
  // No trim and no NFC on a CSV cell: the first mark is the one written.
  it.each([
    ['an acute accent before the name', '\u0301ZORGLUB', 'U+0301'],
    ['combining marks only', '\u0301\u0327', 'U+0301'],
    ['an enclosing circle', '\u20ddZORGLUB', 'U+20DD'],
  ])('%s', (_name, value, codePoint) => {
    const rows = generatedRows(body('adf', 'employer', 2));
    rows[1] = withCells('adf', rows[1]!, { NOM_TITULAIRE: value });
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(located(r.errors)).toEqual([{ row: 3, column: 'NOM_TITULAIRE', code: 'INVALID_CHARACTER' }]);
    expect(r.errors[0]!.message).toContain(codePoint);
  });
});

describe('CSV: byte-order marks', () => {
  const rows = () => generatedRows(body('adf', 'employer', 2));

  it('at the start of the file: INVALID_ENCODING, the file is rejected (file-level, as before)', () => {
    const file = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), csvFile('adf', rows())]);
    const r = checkCsv(file, 'adf', 'employer');
    expect(r.file_rejected).toBe(true);
    expect(located(r.errors)).toEqual([{ row: null, column: null, code: 'INVALID_ENCODING' }]);
  });

  it('at the start of row 2: INVALID_CHARACTER on its first cell', () => {
    const data = rows();
    data[0] = withCells('adf', data[0]!, { ID_DECLARATION: `\ufeff${data[0]![0]}` });
    const r = checkCsv(csvFile('adf', data), 'adf', 'employer');
    expect(r.file_rejected).toBe(false);
    expect(located(r.errors)).toEqual([{ row: 2, column: columnsOf('adf')[0], code: 'INVALID_CHARACTER' }]);
    expect(r.errors[0]!.message).toBe(
      'ID_DECLARATION contains U+FEFF, an invisible or format character the file cannot hold.',
    );
  });

  it('at the start of row 3 and inside a cell of row 2', () => {
    const data = rows();
    data[0] = withCells('adf', data[0]!, { NOM_TITULAIRE: 'DU\ufeffPONT' });
    data[1] = withCells('adf', data[1]!, { ID_DECLARATION: `\ufeff${data[1]![0]}` });
    const r = checkCsv(csvFile('adf', data, '\n'), 'adf', 'employer');
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'NOM_TITULAIRE', code: 'INVALID_CHARACTER' },
      { row: 3, column: 'ID_DECLARATION', code: 'INVALID_CHARACTER' },
    ]);
  });
});

describe('CSV: bytes that are not UTF-8 stay INVALID_ENCODING (the file is rejected)', () => {
  it.each([
    ['C0 AF (overlong)', [0xc0, 0xaf]],
    ['ED A0 80 (a surrogate)', [0xed, 0xa0, 0x80]],
    ['ED B0 80 (a low surrogate)', [0xed, 0xb0, 0x80]],
    ['E9 (Latin-1)', [0xe9]],
    ['F4 90 80 80 (beyond U+10FFFF)', [0xf4, 0x90, 0x80, 0x80]],
  ])('%s in a birth name', (_name, bytes) => {
    const data = generatedRows(body('adf', 'employer', 2));
    data[0] = withCells('adf', data[0]!, { NOM_TITULAIRE: '@@' });
    const [before, after] = csvFile('adf', data).toString('utf8').split('@@') as [string, string];
    const file = Buffer.concat([
      Buffer.from(before),
      Buffer.from('DU'),
      Buffer.from(bytes),
      Buffer.from(`PONT${after}`),
    ]);
    const r = checkCsv(file, 'adf', 'employer');
    expect(r.file_rejected).toBe(true);
    expect(located(r.errors)).toEqual([{ row: null, column: null, code: 'INVALID_ENCODING' }]);
  });

  it('U+FFFD written as UTF-8 (EF BF BD) is well-formed: INVALID_CHARACTER on the cell', () => {
    const data = generatedRows(body('adf', 'employer', 2));
    data[0] = withCells('adf', data[0]!, { NOM_TITULAIRE: 'DU\ufffdPONT' });
    const r = checkCsv(csvFile('adf', data), 'adf', 'employer');
    expect(located(r.errors)).toEqual([{ row: 2, column: 'NOM_TITULAIRE', code: 'INVALID_CHARACTER' }]);
  });
});

// ---- messages -------------------------------------------------------------------------------------

describe('the message names the kind of character and its code point, in both languages', () => {
  it.each([
    [
      'DU\u200bPONT',
      'NOM_TITULAIRE contains U+200B, an invisible or format character the file cannot hold.',
      'NOM_TITULAIRE contient U+200B, un caractère invisible ou de mise en forme que le fichier ne peut pas contenir.',
    ],
    [
      'DU|PONT',
      'NOM_TITULAIRE contains "|" (U+007C), the field separator of the file.',
      'NOM_TITULAIRE contient « | » (U+007C), le séparateur des champs du fichier.',
    ],
    [
      'DU\nPONT',
      'NOM_TITULAIRE contains a line break (U+000A), which would split the line.',
      'NOM_TITULAIRE contient un saut de ligne (U+000A), qui couperait la ligne.',
    ],
    [
      'DU\u001bPONT',
      'NOM_TITULAIRE contains U+001B, a control character the file cannot hold.',
      'NOM_TITULAIRE contient U+001B, un caractère de contrôle que le fichier ne peut pas contenir.',
    ],
    [
      'DU\uffffPONT',
      'NOM_TITULAIRE contains U+FFFF, a noncharacter the file cannot hold.',
      'NOM_TITULAIRE contient U+FFFF, un non-caractère que le fichier ne peut pas contenir.',
    ],
    [
      'DU\ue000PONT',
      'NOM_TITULAIRE contains U+E000, a private-use character with no agreed meaning.',
      'NOM_TITULAIRE contient U+E000, un caractère à usage privé, sans signification convenue.',
    ],
  ])('%j', (value, en, fr) => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = value;
    expect(check(b).errors.map((e) => e.message)).toEqual([en]);
    expect(check(b, { lang: 'fr' }).errors.map((e) => e.message)).toEqual([fr]);
  });

  it('the entry keeps the API shape: row, column, field, code, message', () => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = 'DU\u200bPONT';
    expect(Object.keys(check(b).errors[0]!)).toEqual(['row', 'column', 'field', 'code', 'message']);
  });
});

// ---- the request's own strings --------------------------------------------------------------------

describe("strings that are not values: the request's structure refuses them", () => {
  it.each<[string, (b: Json) => void, string]>([
    ['type with U+FFFD', (b) => (b.type = 'adf\ufffd'), 'type'],
    ['declarant with a lone surrogate', (b) => (b.declarant = 'employer\ud800'), 'declarant'],
    [
      'formula_policy with a BOM',
      (b) => (b.options = { formula_policy: '\ufeffreject' }),
      'options.formula_policy',
    ],
    [
      'a key with a zero-width space',
      (b) => (holderOf(b)['birth_name\u200b'] = 'DUPONT'),
      'declarations[0].holders[0].birth_name\u200b',
    ],
    [
      'a key with a lone surrogate',
      (b) => (decl(b)['reference\udc00'] = 'X'),
      'declarations[0].reference\udc00',
    ],
    ['a filename (generate names its files itself)', (b) => (b.filename = 'DU\ufffdPONT.csv'), 'filename'],
  ])('%s → INVALID_REQUEST naming the field', (_name, set, field) => {
    const b = body('adf', 'employer');
    set(b);
    const err = requestError(() => check(b));
    expect(err.code).toBe('INVALID_REQUEST');
    const fields = (err.details as { fields: { field: string }[] }).fields;
    expect(fields.map((f) => f.field)).toEqual([field]);
    expect(requestError(() => generateFile(b, testEnv())).code).toBe('INVALID_REQUEST');
  });

  it('spec_version with a zero-width space → UNSUPPORTED_SPEC_VERSION', () => {
    const b = body('adf', 'employer');
    b.spec_version = '2026-02\u200b';
    expect(requestError(() => check(b)).code).toBe('UNSUPPORTED_SPEC_VERSION');
  });

  it('the upload form: a type with U+FFFD → INVALID_REQUEST', () => {
    const file = csvFile('adf', generatedRows(body('adf', 'employer')));
    expect(requestError(() => checkCsv(file, 'adf\ufffd' as 'adf', 'employer')).code).toBe('INVALID_REQUEST');
  });
});

describe('hasForbiddenCharacter and the review list', () => {
  it('refuses each class of the review, alone and inside a value', () => {
    for (const [name, c] of CLASSES) {
      expect([name, hasForbiddenCharacter(c), hasForbiddenCharacter(`DUP${c}ONT`)]).toEqual([
        name,
        true,
        true,
      ]);
    }
  });
});
