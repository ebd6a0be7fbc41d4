/**
 * Messages (API.md §4): English by default, French on demand, from one catalogue, and never a NIR,
 * a birth name or any other personal value.
 */
import { generateFile } from './api';
import { FORMAT_ERROR_CODES, ISSUE_CODES } from './codes';
import { formatErrorMessage, issueMessage, pickLang } from './messages';
import { NIR_A, NIR_A_KEY, NIR_B, NIR_CORSICA } from './testing/fixtures';
import {
  body,
  check,
  checkCsv,
  colIndex,
  csvFile,
  decl,
  holderOf,
  holders,
  requestError,
  testEnv,
  training,
  withCells,
  generatedRows,
} from './testing/format-helpers';

describe('the catalogue', () => {
  it.each(ISSUE_CODES)('%s has an English and a French message', (code) => {
    const params = {
      column: 'NIR',
      max: 30,
      min: 3,
      count: 2,
      length: 31,
      list: 'rome',
      expected: 'x',
      position: 2,
      deadline: '30/09/2026',
      first_row: 2,
    };
    const en = issueMessage(code, 'en', params);
    const fr = issueMessage(code, 'fr', params);
    expect(en.length).toBeGreaterThan(10);
    expect(fr.length).toBeGreaterThan(10);
    expect(fr).not.toBe(en);
  });

  it.each(FORMAT_ERROR_CODES)('request error %s has an English and a French message', (code) => {
    const en = formatErrorMessage(code, 'en', { count: 2, limit: 50, expected: '2026-02' });
    const fr = formatErrorMessage(code, 'fr', { count: 2, limit: 50, expected: '2026-02' });
    expect(en).not.toBe(fr);
  });
});

describe('pickLang', () => {
  it.each([
    [undefined, 'en'],
    [null, 'en'],
    ['', 'en'],
    ['fr', 'fr'],
    ['FR', 'fr'],
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr'],
    ['en-US,fr;q=0.5', 'en'],
    ['de', 'en'],
    ['french', 'en'],
  ])('%j → %s', (header, lang) => {
    expect(pickLang(header)).toBe(lang);
  });
});

describe('English by default, French with lang fr', () => {
  it('REQUIRED_FIELD, FIELD_TOO_LONG, INVALID_NIR_KEY, DUPLICATE_UNIQUE_ID', () => {
    const b = body('adf', 'employer', 3);
    holderOf(b, 0).birth_name = '';
    holderOf(b, 1).birth_name = 'A'.repeat(31);
    holderOf(b, 1).nir = `${NIR_B}00`;
    holderOf(b, 2).unique_id = 'SST-2026-09-E0';
    const en = check(b).errors.map((e) => e.message);
    const fr = check(b, { lang: 'fr' }).errors.map((e) => e.message);
    expect(en).toEqual([
      'NOM_TITULAIRE is required here.',
      'The NIR was given with 15 characters and its key is wrong.',
      'NOM_TITULAIRE has 31 characters; at most 30 are allowed (values are never truncated).',
      'ID_UNIQUE_PARTENAIRE is already used on line 2 of this file.',
    ]);
    expect(fr).toEqual([
      'NOM_TITULAIRE est obligatoire ici.',
      'Le NIR est donné sur 15 caractères et sa clé est fausse.',
      "NOM_TITULAIRE compte 31 caractères ; 30 au plus sont admis (aucune valeur n'est tronquée).",
      'ID_UNIQUE_PARTENAIRE est déjà utilisé à la ligne 2 de ce fichier.',
    ]);
  });

  it('file-level messages of a CSV', () => {
    expect(checkCsv(Buffer.alloc(0), 'adf', 'employer').errors[0]!.message).toBe(
      'The file is empty: it has no header line.',
    );
    expect(checkCsv(Buffer.alloc(0), 'adf', 'employer', { lang: 'fr' }).errors[0]!.message).toBe(
      "Le fichier est vide : il n'a pas de ligne d'en-tête.",
    );
  });

  it('warnings too', () => {
    const b = body('adf', 'employer');
    holderOf(b).nir = `3${NIR_A.slice(1)}`;
    expect(check(b, { lang: 'fr' }).warnings[0]!.message).toBe(
      "Le NIR est un numéro provisoire ou d'attente (premier chiffre 3, 4, 7 ou 8) ; le portail peut ne pas le reconnaître.",
    );
  });
});

describe('no personal value in any message or response', () => {
  const NAMES = ['ZORGLUBIANUS', 'QWERTYUIOPASDFGHJKLZXCVBNMQWERTY', 'XANTHIPPEA', 'KRAKOWIAKOWSKA'];
  const NIRS = [NIR_A, NIR_B, NIR_CORSICA, '9550814168025', '2551314168025', '3550814168025', '25508141680'];

  /** A body where every holder has something wrong or worth a warning. */
  function pathological() {
    const b = body('adf', 'training_organization', 8);
    const h = holders(b);
    Object.assign(h[0]!, { nir: `${NIR_A}${NIR_A_KEY}`, birth_name: `  ${NAMES[0]}  ` });
    Object.assign(h[1]!, { nir: `${NIR_B}00`, birth_name: NAMES[1] });
    Object.assign(h[2]!, { nir: '9550814168025', birth_name: `=${NAMES[2]}` });
    Object.assign(h[3]!, { nir: '2551314168025', birth_name: `${NAMES[3]}|X` });
    Object.assign(h[4]!, { nir: NIR_A, birth_name: NAMES[0] });
    Object.assign(h[5]!, { nir: '3550814168025', birth_name: NAMES[2], employer_siret: '20005667900019' });
    Object.assign(h[6]!, { nir: '2 55 08 14 168 02', birth_name: NAMES[3], unique_id: 'SST-2026-09-E0' });
    Object.assign(h[7]!, { nir: NIR_CORSICA, birth_name: `${NAMES[1]}\n` });
    training(b).end_date = '2026-09-13';
    decl(b).reference = '';
    return b;
  }

  function expectClean(text: string): void {
    for (const value of [...NAMES, ...NIRS]) expect(text).not.toContain(value);
    expect(text).not.toContain(`${NIR_A}${NIR_A_KEY}`);
  }

  it.each(['en', 'fr'] as const)('validateDeclarations and generateFile (%s)', (lang) => {
    const r = check(pathological(), { lang });
    expect(r.error_count).toBeGreaterThanOrEqual(8);
    expect(r.warning_count).toBeGreaterThanOrEqual(2);
    expect(r.normalization_count).toBeGreaterThanOrEqual(3);
    expectClean(JSON.stringify(r));
    const err = requestError(() => generateFile(pathological(), testEnv({ lang })));
    expect(err.code).toBe('VALIDATION_FAILED');
    expectClean(JSON.stringify({ message: err.message, details: err.details }));
  });

  it('the same values in an uploaded CSV', () => {
    const rows = generatedRows(body('adf', 'training_organization', 6)).map((row, i) =>
      withCells('adf', row, { NIR: NIRS[i]!, NOM_TITULAIRE: i === 1 ? NAMES[1]! : `=${NAMES[i % 4]}` }),
    );
    rows[5] = withCells('adf', rows[5]!, { NOM_TITULAIRE: `${NAMES[0]}\r` + 'X' });
    rows[4] = rows[4]!.slice(0, colIndex('adf', 'NOM_TITULAIRE') + 1);
    for (const lang of ['en', 'fr'] as const) {
      const r = checkCsv(csvFile('adf', rows), 'adf', 'training_organization', { lang });
      expect(r.error_count).toBeGreaterThanOrEqual(4);
      expectClean(JSON.stringify(r));
    }
  });

  it('the details of INVALID_REQUEST', () => {
    const b = body('adf', 'employer');
    holderOf(b).nir = Number(NIR_A);
    holderOf(b).full_name = NAMES[0];
    holderOf(b).birth_name = [NAMES[1]];
    const err = requestError(() => check(b));
    expect(err.code).toBe('INVALID_REQUEST');
    expectClean(JSON.stringify({ message: err.message, details: err.details }));
  });
});
