/**
 * The reference lists shipped in reference-data/2026-02 (reference-data/README.md): ROME 4.0 v460 and
 * Formacode V14 complete, imported from the official exports by importReferenceList; NSF and RS partial,
 * built in. A code absent from a complete list is then an error by default, as at the portal, because
 * the manifest says `complete: true` (API.md §3c) — shown here through the rules' validate entries.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  validateCsv,
  validateDeclarations,
  type DeclarationValidationResponse,
  type Issue,
} from '@ppfile/rules';
import { validBody } from '@ppfile/rules/testing/fixtures';
// The codes of the rules' golden and property tests (a test file of another library: tests are exempt
// from the layer rule, docs/architecture.md).
import { GOLDEN_CODES } from '../../rules/test/support/reference-lists';
import { clearReferenceCache, loadReferenceLists } from './load';
import { readManifest } from './manifest';
import { shippedReferenceDir } from './shipped-dir';

const SPEC = '2026-02';
const TODAY = 20261122;
const SHIPPED = shippedReferenceDir(SPEC);
const CLI_CSV = path.resolve(__dirname, '../../../test/fixtures/cli/of-adf.csv');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- request bodies

const bare = (issues: Issue[]) =>
  issues.map(({ row, column, field, code }) =>
    field === undefined ? { row, column, code } : { row, column, field, code },
  );

afterAll(() => clearReferenceCache());

describe('the shipped manifest and lists (reference-data/2026-02)', () => {
  const manifest = readManifest(SHIPPED, SPEC);
  const lists = loadReferenceLists(SHIPPED, SPEC);

  it('ROME 4.0 v460: 18,317 competence codes, complete, imported from France Travail’s export', () => {
    expect(manifest.lists.rome).toEqual({
      file: 'rome.tsv',
      source: 'unix_referentiel_competence_v460_utf8.csv',
      version: 'v460',
      count: 18317,
      complete: true,
      imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(lists.rome.complete).toBe(true);
    expect(lists.rome.entries.size).toBe(18317);
  });

  it('Formacode V14: 2,775 codes, complete, imported from Centre Inffo’s file', () => {
    expect(manifest.lists.formacode).toEqual({
      file: 'formacode.tsv',
      source: 'formacodes-v14.csv',
      version: 'v14',
      count: 2775,
      complete: true,
      imported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(lists.formacode.complete).toBe(true);
    expect(lists.formacode.entries.size).toBe(2775);
  });

  it('NSF (93 groups + 3 letter codes) and RS (5 codes) stay built in and partial', () => {
    expect(manifest.lists.nsf).toMatchObject({ count: 96, complete: false, imported_at: null });
    expect(manifest.lists.rs).toMatchObject({ count: 5, complete: false, imported_at: null });
    expect(lists.nsfGroups.size).toBe(93);
  });

  it.each([
    ['115650', "Assurer la protection des personnes en situation d'incident ou d'accident"],
    ['121885', "Appliquer les techniques de premiers secours en cas d'urgence"],
    [
      '400635',
      "Mettre en oeuvre les procédures d'alerte des secours et les autres mesures prédéfinies en cas d'incident",
    ],
    ['100023', 'Abattre un arbre'],
    ['120864', 'Prévenir les accidents du travail'],
    ['489756', 'Appliquer les normes relatives à la prévention des risques électriques'],
    ['104292', 'Effectuer le suivi des réservations'], // a Macro-compétence
  ])('ROME %s is « %s »', (code, label) => {
    expect(lists.rome.entries.get(code)).toBe(label);
  });

  it.each([
    ['42829', 'Sauvetage secourisme travail'],
    ['42817', 'Réglementation santé sécurité travail'],
    ['13030', 'Préparation examen concours fonction publique'],
    ['31054', 'Informatique - Systèmes d’information et numérique'],
    ['24049', 'Habilitation électrique'],
    ['15054', 'Développement professionnel et personnel'], // a semantic field's head
  ])('Formacode %s is « %s »', (code, label) => {
    expect(lists.formacode.entries.get(code)).toBe(label);
  });

  it('the ROME and Formacode codes of the rules’ golden and property tests are real ones', () => {
    expect(GOLDEN_CODES.rome.filter((c) => !lists.rome.entries.has(c))).toEqual([]);
    expect(GOLDEN_CODES.formacode.filter((c) => !lists.formacode.entries.has(c))).toEqual([]);
  });

  it('well-formed codes that are in neither list', () => {
    for (const code of ['999999', '000000', '103885', '119571'])
      expect(lists.rome.entries.has(code)).toBe(false);
    // 46261 and 31088 are Formacode V13 only; 00101 is a "grand domaine", not a descriptor.
    for (const code of ['99999', '46261', '31088', '00101'])
      expect(lists.formacode.entries.has(code)).toBe(false);
  });
});

describe('an unknown ROME or Formacode code with the shipped lists (API.md §3c)', () => {
  const refs = () => loadReferenceLists(SHIPPED, SPEC);

  /** A valid adf body of a training organization with the unknown codes 999999 (ROME) and 99999 (Formacode). */
  const unknownCodes = (options?: Json): Json => {
    const body = validBody('adf', 'training_organization', 1) as Json;
    body.declarations[0].transferable_skills = ['115650', '121885', '999999'];
    body.declarations[0].training.formacodes = ['42829', '99999'];
    body.declarations[0].training.nsf_codes = ['344r'];
    if (options) body.options = options;
    return body;
  };
  const expectedIssues = [
    {
      row: 2,
      column: 'COMPETENCE_TRANSFERABLE',
      field: 'declarations[0].transferable_skills[2]',
      code: 'INVALID_ROME_CODE',
    },
    {
      row: 2,
      column: 'DOMAINE_FORMATION',
      field: 'declarations[0].training.formacodes[1]',
      code: 'INVALID_FORMACODE',
    },
  ];

  it('the same body with known codes is valid, without warnings', () => {
    const body = unknownCodes();
    body.declarations[0].transferable_skills = ['115650', '121885', '400635'];
    body.declarations[0].training.formacodes = ['42829', '42817'];
    const result = validateDeclarations(body, { refs: refs(), today: TODAY });
    expect(result).toMatchObject({ valid: true, error_count: 0, warning_count: 0 });
  });

  it('validateDeclarations: INVALID_ROME_CODE and INVALID_FORMACODE are errors by default, not REFERENCE_NOT_VERIFIED', () => {
    const result: DeclarationValidationResponse = validateDeclarations(unknownCodes(), {
      refs: refs(),
      today: TODAY,
    });
    expect(result.valid).toBe(false);
    expect(bare(result.errors)).toEqual(expectedIssues);
    expect(result.warnings).toEqual([]);
    expect(result.errors.map((e) => e.message)).toEqual([
      'COMPETENCE_TRANSFERABLE: a code is absent from the ROME reference list.',
      'DOMAINE_FORMATION: a code is absent from the Formacode reference list.',
    ]);
  });

  it('strict_references: false makes them warnings (the request stays valid)', () => {
    const result = validateDeclarations(unknownCodes({ strict_references: false }), {
      refs: refs(),
      today: TODAY,
    });
    expect(result.valid).toBe(true);
    expect(result.errors).toEqual([]);
    expect(bare(result.warnings)).toEqual(expectedIssues);
  });

  it('validateCsv: the same for an uploaded file, and with strict_references: false', () => {
    const csv = fs
      .readFileSync(CLI_CSV, 'utf8')
      .replaceAll('|115650/121885/400635|', '|115650/121885/999999|')
      .replaceAll('|42829|', '|99999|');
    const req = { type: 'adf', declarant: 'training_organization', filename: 'of-adf.csv' };
    const strict = validateCsv(Buffer.from(csv, 'utf8'), req, { refs: refs(), today: TODAY });
    // Both lines are one declaration: its codes are reported once, on its first row; both rows are invalid.
    expect(strict).toMatchObject({
      valid: false,
      rows_total: 2,
      rows_invalid: 2,
      error_count: 2,
      warning_count: 0,
    });
    expect(strict.summary.by_code).toEqual({ INVALID_ROME_CODE: 1, INVALID_FORMACODE: 1 });
    const lenient = validateCsv(
      Buffer.from(csv, 'utf8'),
      { ...req, strict_references: false },
      { refs: refs(), today: TODAY },
    );
    expect(lenient).toMatchObject({ valid: true, error_count: 0, warning_count: 2 });
  });

  it('follows the manifest: the same lists marked complete: false give REFERENCE_NOT_VERIFIED warnings', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ppfile-shipped-'));
    try {
      fs.cpSync(path.join(SHIPPED, SPEC), path.join(tmp, SPEC), { recursive: true });
      const file = path.join(tmp, SPEC, 'manifest.json');
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      manifest.lists.rome.complete = false;
      manifest.lists.formacode.complete = false;
      fs.writeFileSync(file, JSON.stringify(manifest));
      const partial = loadReferenceLists(tmp, SPEC);
      expect(partial.rome.entries.size).toBe(18317);
      const result = validateDeclarations(unknownCodes(), { refs: partial, today: TODAY });
      expect(result.valid).toBe(true);
      expect(bare(result.warnings)).toEqual(
        expectedIssues.map((i) => ({ ...i, code: 'REFERENCE_NOT_VERIFIED' })),
      );
    } finally {
      clearReferenceCache(tmp);
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
