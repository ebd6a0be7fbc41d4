import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FILE_TYPES, findSpec } from '@ppfile/rules';
import { HEADER_SYNONYMS, HeaderMatcher, headerKey } from './headers';

const SPEC = findSpec('2026-02')!;

describe('header matching (API.md §14)', () => {
  it('compares without case, accents, spaces, _, - or .', () => {
    expect(headerKey('N° de Sécurité-Sociale')).toBe(headerKey('n°desecurite_sociale'));
    expect(headerKey('Date. de début')).toBe('datededebut');
    expect(headerKey('Date d’expiration')).toBe(headerKey("Date d'expiration"));
  });

  it('the synonym table names only official columns, and no key names two columns of one kind', () => {
    const names = new Set(FILE_TYPES.flatMap((t) => SPEC.tables[t].columns.map((c) => c.name)));
    for (const column of Object.keys(HEADER_SYNONYMS)) expect(names).toContain(column);
    for (const type of FILE_TYPES) {
      const owner = new Map<string, string>();
      for (const c of SPEC.tables[type].columns) {
        const texts = [c.name, c.json.path, c.labels.fr, c.labels.en, ...(HEADER_SYNONYMS[c.name] ?? [])];
        for (const text of texts) {
          const key = headerKey(text);
          const other = owner.get(key);
          if (other !== undefined && other !== c.name)
            throw new Error(`${type}: "${text}" names ${other} and ${c.name}`);
          owner.set(key, c.name);
        }
      }
    }
  });

  it('matches the usual French headers of the issue, by kind', () => {
    const adf = new HeaderMatcher(SPEC.tables.adf);
    expect(adf.match('N° de sécurité sociale')).toMatchObject({ column: { name: 'NIR' }, how: 'synonym' });
    expect(adf.match('Nom de naissance')).toMatchObject({
      column: { name: 'NOM_TITULAIRE' },
      how: 'synonym',
    });
    expect(adf.match("SIRET de l'employeur")).toMatchObject({
      column: { name: 'SIRET_EMPLOYEUR' },
      how: 'label',
    });
    expect(adf.match('Date de début')).toMatchObject({
      column: { name: 'DATE_DEBUT_FORMATION' },
      how: 'synonym',
    });
    expect(adf.match('training.start_date')).toMatchObject({
      column: { name: 'DATE_DEBUT_FORMATION' },
      how: 'field',
    });
    // "Training start date" is a label and, once compared, the JSON field too: the earlier kind names it.
    expect(adf.match('Training start date')?.how).toBe('field');
    expect(adf.match('Date de début de validité')).toMatchObject({
      column: { name: 'DATE_DEBUT_VALIDITE' },
      how: 'label',
    });
    expect(adf.match('nom_titulaire')).toMatchObject({ column: { name: 'NOM_TITULAIRE' }, how: 'name' });
    // A jdr column is no adf header.
    expect(adf.match('Type de justificatif')).toBeUndefined();
    expect(new HeaderMatcher(SPEC.tables.jdr).match('Type de justificatif')?.column.name).toBe('TYPE_JDR');
    expect(adf.match('Commentaire')).toBeUndefined();
  });
});

describe('docs/spreadsheets.md', () => {
  it('prints the synonym table as it is in the code (HEADER_SYNONYMS)', () => {
    const doc = readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'spreadsheets.md'), 'utf8');
    const rows = new Map(
      doc
        .split('\n')
        .filter((l) => /^\| [A-Z_]+ +\|/.test(l))
        .map((l) => l.split('|').map((c) => c.trim()))
        .map((cells) => [cells[1]!, cells[4]!.split(' · ').filter((s) => s !== '')]),
    );
    for (const [column, synonyms] of Object.entries(HEADER_SYNONYMS)) {
      expect([column, rows.get(column)?.map((s) => s.replaceAll('\\|', '|'))]).toEqual([
        column,
        [...synonyms],
      ]);
    }
  });
});
