import { fixCsv, type FileChange } from './csv-fixer';
import { validateCsv } from './api';
import { findSpec } from './format';
import { adfRow } from './testing/format-helpers';
import { NIR_A, NIR_A_KEY, SIRET_A, testReferences } from './testing/fixtures';

const refs = testReferences();
const env = { refs, today: 20261122 };
const req = { type: 'adf', declarant: 'training_organization' };
const COLUMNS = findSpec('2026-02')!.tables.adf.columns.map((c) => c.name);
const HEADER = COLUMNS.join('|');

const row = adfRow;

const file = (...rows: string[]) => Buffer.from([HEADER, ...rows].map((l) => `${l}\r\n`).join(''), 'utf8');
const changesOf = (rows: string[]) => fixCsv(file(...rows), req, env);

describe('fixCsv (API.md §14 Fix)', () => {
  it('leaves a valid official file as it is: no change, same bytes, valid', () => {
    const bytes = file(row());
    const fixed = fixCsv(bytes, req, env);
    expect(fixed.change_count).toBe(0);
    expect(fixed.content).toBe(bytes.toString('utf8'));
    expect(fixed.validation.valid).toBe(true);
  });

  const cases: [string, Record<string, string>, Record<string, string>, FileChange['rule']][] = [
    [
      'an ISO date',
      { DATE_DEBUT_VALIDITE: '2026-09-15' },
      { DATE_DEBUT_VALIDITE: '15/09/2026' },
      'DATE_REFORMATTED',
    ],
    [
      'a lower-case enumeration',
      { MODALITE_DISPENSE: 'presentiel' },
      { MODALITE_DISPENSE: 'PRESENTIEL' },
      'ENUM_UPPERCASED',
    ],
    [
      'a lower-case OUI/NON',
      { FORMATION_CERTIFIANTE: 'non' },
      { FORMATION_CERTIFIANTE: 'NON' },
      'ENUM_UPPERCASED',
    ],
    [
      'an NSF code in upper case',
      { SPECIALITE_FORMATION: '344R' },
      { SPECIALITE_FORMATION: '344r' },
      'CODE_NORMALIZED',
    ],
    [
      'spaces inside a NIR',
      { NIR: `${NIR_A.slice(0, 1)} ${NIR_A.slice(1, 3)} ${NIR_A.slice(3)}` },
      { NIR: NIR_A },
      'SEPARATORS_REMOVED',
    ],
    [
      'dots inside a SIRET',
      { SIRET_EMPLOYEUR: `${SIRET_A.slice(0, 9)}.${SIRET_A.slice(9)}` },
      { SIRET_EMPLOYEUR: SIRET_A },
      'SEPARATORS_REMOVED',
    ],
    ['a correct NIR key', { NIR: NIR_A + NIR_A_KEY }, { NIR: NIR_A }, 'NIR_KEY_REMOVED'],
    [
      'white space around a name',
      { NOM_TITULAIRE: '  DUPONT ' },
      { NOM_TITULAIRE: 'DUPONT' },
      'WHITESPACE_TRIMMED',
    ],
    [
      'a decomposed accent',
      { NOM_TITULAIRE: 'BE\u0301RANGER' },
      { NOM_TITULAIRE: 'B\u00c9RANGER' },
      'UNICODE_NFC',
    ],
  ];
  it.each(cases)('fixes %s, listing row, column and rule', (_, given, expected, rule) => {
    const fixed = changesOf([row(), row({ ID_UNIQUE_PARTENAIRE: 'SST-2026-09-E2', ...given })]);
    expect(fixed.content).toBe(
      file(row(), row({ ID_UNIQUE_PARTENAIRE: 'SST-2026-09-E2', ...expected })).toString(),
    );
    const column = Object.keys(given)[0]!;
    expect(fixed.changes).toContainEqual({ row: 3, column, rule });
    expect(fixed.changes.every((c) => c.row === 3 && c.column === column)).toBe(true);
    expect(fixed.validation.valid).toBe(true);
    // The validation is the fixed file's, as POST /v1/files/validate would answer it.
    expect(fixed.validation).toEqual(validateCsv(Buffer.from(fixed.content!), req, env));
  });

  it('fixes an RS code and each code of a multi-valued cell', () => {
    const fixed = changesOf([
      row({
        FORMATION_CERTIFIANTE: 'OUI',
        CERTIFICATION_VISEE: 'rs6550',
        DOMAINE_FORMATION: '',
        SPECIALITE_FORMATION: '',
      }),
      row({ ID_UNIQUE_PARTENAIRE: 'X2', COMPETENCE_TRANSFERABLE: '115650/ 121885 /400635' }),
    ]);
    const lines = fixed.content!.split('\r\n');
    expect(lines[1]!.split('|')[COLUMNS.indexOf('CERTIFICATION_VISEE')]).toBe('RS6550');
    expect(lines[2]!.split('|')[COLUMNS.indexOf('COMPETENCE_TRANSFERABLE')]).toBe('115650/121885/400635');
    expect(fixed.changes).toEqual([
      { row: 2, column: 'CERTIFICATION_VISEE', rule: 'CODE_NORMALIZED' },
      // One change per code changed: " 121885 " only.
      { row: 3, column: 'COMPETENCE_TRANSFERABLE', rule: 'WHITESPACE_TRIMMED' },
    ]);
  });

  it('removes a BOM, re-encodes Windows-1252 and writes CRLF, each listed for the file', () => {
    const text = `${HEADER}\n${row({ NOM_TITULAIRE: 'BÉRANGER' })}\n`;
    const latin = Buffer.from(new Uint8Array([...text].map((c) => c.charCodeAt(0))));
    const fixed = fixCsv(latin, req, env);
    expect(fixed.changes).toEqual([
      { row: null, column: null, rule: 'REENCODED_AS_UTF8' },
      { row: null, column: null, rule: 'CRLF_LINE_ENDINGS' },
    ]);
    expect(fixed.content).toBe(file(row({ NOM_TITULAIRE: 'BÉRANGER' })).toString('utf8'));
    expect(fixed.validation).toEqual(validateCsv(Buffer.from(fixed.content!), req, env));
    expect(fixed.validation.valid).toBe(true);

    const bom = fixCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), file(row())]), req, env);
    expect(bom.changes).toEqual([{ row: null, column: null, rule: 'BOM_REMOVED' }]);
    expect(validateCsv(Buffer.from(bom.content!), req, env).valid).toBe(true);
  });

  it('ends the last line with CRLF too (a file without a final line break)', () => {
    const bytes = file(row(), row({ ID_UNIQUE_PARTENAIRE: 'E2', MODALITE_DISPENSE: 'mixte' }));
    const fixed = fixCsv(bytes.subarray(0, bytes.length - 2), req, env);
    expect(fixed.content).toBe(
      file(row(), row({ ID_UNIQUE_PARTENAIRE: 'E2', MODALITE_DISPENSE: 'MIXTE' })).toString(),
    );
    expect(fixed.changes).toEqual([
      { row: null, column: null, rule: 'CRLF_LINE_ENDINGS' },
      { row: 3, column: 'MODALITE_DISPENSE', rule: 'ENUM_UPPERCASED' },
    ]);
  });

  it('never corrects a wrong code, a name, an impossible date or a wrong key: they stay errors', () => {
    const wrong = {
      DOMAINE_FORMATION: '99999',
      NOM_TITULAIRE: 'dupont',
      DATE_DEBUT_VALIDITE: '31/02/2026',
      SIRET_EMPLOYEUR: '20005667900019',
      NIR: NIR_A + '00',
    };
    const fixed = changesOf([row(wrong)]);
    expect(fixed.change_count).toBe(0);
    expect(fixed.content).toBe(file(row(wrong)).toString('utf8'));
    expect(fixed.validation).toEqual(validateCsv(Buffer.from(fixed.content!), req, env));
    const codes = fixed.validation.errors.map((e) => e.code).sort();
    expect(codes).toEqual(['INVALID_DATE', 'INVALID_FORMACODE', 'INVALID_NIR', 'INVALID_SIRET_KEY']);
  });

  it('changes the case of a–z only: ı and ſ are not turned into I and S (issue 32)', () => {
    const cells: Record<string, string>[] = [
      { MODALITE_DISPENSE: 'PRESENTıEL' },
      { MODALITE_DISPENSE: 'preſentiel' },
      { QUALIFICATION_FORMATEUR: 'ıngenieur' },
      { PRESENCE_EMPLOYEUR: 'OUı' },
      { FORMATION_CERTIFIANTE: 'NON', CERTIFICATION_VISEE: 'rſ6550' },
    ];
    const odd = cells.map((c, i) => row({ ID_DECLARATION: `D${i}`, ID_UNIQUE_PARTENAIRE: `E${i}`, ...c }));
    const fixed = changesOf(odd);
    expect(fixed.change_count).toBe(0);
    expect(fixed.content).toBe(file(...odd).toString('utf8'));
    expect(fixed.validation.errors.map((e) => [e.row, e.column, e.code])).toEqual([
      [2, 'MODALITE_DISPENSE', 'INVALID_VALUE'],
      [3, 'MODALITE_DISPENSE', 'INVALID_VALUE'],
      [4, 'QUALIFICATION_FORMATEUR', 'INVALID_VALUE'],
      [5, 'PRESENCE_EMPLOYEUR', 'INVALID_VALUE'],
      [6, 'CERTIFICATION_VISEE', expect.any(String)],
    ]);
  });

  it('answers as validate does, with no content, for a wrong header or column count', () => {
    const header = fixCsv(Buffer.from(`${HEADER.replace('NIR', 'NIRS')}\r\n${row()}\r\n`), req, env);
    expect(header.content).toBeUndefined();
    expect(header.validation.file_rejected).toBe(true);
    expect(header.validation.errors[0]!.code).toBe('INVALID_HEADER');

    const count = changesOf([row(), `${row()}|extra`]);
    expect(count.content).toBeUndefined();
    expect(count.validation.errors.map((e) => e.code)).toContain('COLUMN_COUNT');
  });

  it('counts every change and lists 1,000 at most; refuses more rows than allowed', () => {
    const rows = Array.from({ length: 600 }, (_, i) =>
      row({ ID_UNIQUE_PARTENAIRE: `E${i}`, MODALITE_DISPENSE: 'mixte', NOM_TITULAIRE: ' DUPONT' }),
    );
    const fixed = changesOf(rows);
    expect(fixed.change_count).toBe(1200);
    expect(fixed.changes).toHaveLength(1000);
    expect(() => fixCsv(file(row(), row()), req, { ...env, maxRows: 1 })).toThrow(
      expect.objectContaining({ code: 'LINE_LIMIT_EXCEEDED' }),
    );
  });

  it('refuses a file over the spec’s 20 MB before decoding it (UNREADABLE_FILE, reason too_large)', () => {
    const limit = 20 * 1024 * 1024;
    const big = Buffer.alloc(limit + 1, 0x61);
    expect(() => fixCsv(big, req, env)).toThrow(
      expect.objectContaining({ code: 'UNREADABLE_FILE', details: { reason: 'too_large', limit } }),
    );
    expect(() => fixCsv(big.subarray(0, limit), req, env)).not.toThrow();
  });
});
