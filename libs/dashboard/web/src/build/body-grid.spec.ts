import { describe, expect, it } from '@jest/globals';
import { findSpec } from '@ppfile/rules/format';
import type { DeclarationBody } from '../engine/protocol';
import { RowIndex, cellText, choicesOf, kindColumns, rowOfField, setCell } from './body-grid';

const columns = kindColumns('jdr');
const column = (name: string) => {
  const c = columns.find((col) => col.name === name);
  if (!c) throw new Error(name);
  return c;
};

function body(): DeclarationBody {
  return {
    type: 'jdr',
    declarant: 'employer',
    spec_version: '2026-02',
    declarations: [
      {
        id: 'D1',
        certificate: { type: 'titre', name: 'CACES' },
        training: { name: 'Conduite', start_date: '2026-01-05', certifying: true },
        transferable_skills: ['115650', '121885'],
        holders: [
          { nir: '1920469123456', birth_name: 'MARTIN', employer_agreement: true },
          { nir: '2010133005078', birth_name: 'GARÇON' },
        ],
      },
      { id: 'D2', holders: [{ nir: '1780592051012' }] },
      { id: 'D3', holders: [{ nir: '2991131555104' }, { nir: '1920469123456' }, { nir: '2010133005078' }] },
    ],
  };
}

describe('RowIndex (grid row ↔ declaration and holder)', () => {
  const index = new RowIndex(body());

  it('numbers the holders declaration after declaration', () => {
    expect(index.rowCount).toBe(6);
    expect([0, 1, 2, 3, 5].map((r) => index.at(r))).toEqual([
      { declaration: 0, holder: 0 },
      { declaration: 0, holder: 1 },
      { declaration: 1, holder: 0 },
      { declaration: 2, holder: 0 },
      { declaration: 2, holder: 2 },
    ]);
    expect(index.rowOf(2, 1)).toBe(4);
    expect(index.rowOf(1, 1)).toBeNull();
    expect(index.rowOf(7)).toBeNull();
    expect(index.span(2)).toBe(3);
  });

  it('reads a body path as its grid row (a declaration-level path: the declaration’s first row)', () => {
    expect(rowOfField('declarations[2].holders[1].nir', index)).toBe(4);
    expect(rowOfField('declarations[1].training.name', index)).toBe(2);
    expect(rowOfField('declarations[0].transferable_skills[1]', index)).toBe(0);
    expect(rowOfField('options.strict_references', index)).toBeNull();
    expect(rowOfField(undefined, index)).toBeNull();
  });
});

describe('cellText (a cell as the body holds it)', () => {
  const b = body();
  const first = { declaration: 0, holder: 0 };
  const second = { declaration: 0, holder: 1 };

  it('reads holder and declaration values, nested paths, booleans and codes', () => {
    expect(cellText(b, first, column('NIR'))).toBe('1920469123456');
    expect(cellText(b, second, column('NOM_TITULAIRE'))).toBe('GARÇON');
    expect(cellText(b, second, column('TYPE_JDR'))).toBe('titre');
    expect(cellText(b, second, column('COMPETENCE_TRANSFERABLE'))).toBe('115650/121885');
    expect(cellText(b, first, column('FORMATION_CERTIFIANTE'))).toBe('OUI');
    expect(cellText(b, first, column('PRESENCE_EMPLOYEUR'))).toBe('OUI');
    expect(cellText(b, second, column('PRESENCE_EMPLOYEUR'))).toBe('');
    expect(cellText(b, first, column('PRESENCE_FORMATION'))).toBe('OUI');
    expect(cellText(b, { declaration: 1, holder: 0 }, column('PRESENCE_FORMATION'))).toBe('NON');
    expect(cellText(b, { declaration: 1, holder: 0 }, column('NOM_FORMATION'))).toBe('');
  });

  it('gives the choices of OUI/NON and enumeration columns only', () => {
    expect(choicesOf(column('PRESENCE_FORMATION'))).toEqual(['OUI', 'NON']);
    expect(choicesOf(column('TYPE_JDR'))).toEqual(
      findSpec('2026-02')!.tables.jdr.columns.find((c) => c.name === 'TYPE_JDR')!.values,
    );
    expect(choicesOf(column('NIR'))).toBeUndefined();
  });
});

describe('setCell (an edit of the grid applied to the body)', () => {
  it('changes one holder value in a new body and leaves the old one as it was', () => {
    const before = body();
    const copy = structuredClone(before);
    const after = setCell(before, { declaration: 2, holder: 1 }, column('NIR'), '1 92 04');
    expect(after.declarations[2]!.holders).toEqual([
      { nir: '2991131555104' },
      { nir: '1 92 04' },
      { nir: '2010133005078' },
    ]);
    expect(before).toEqual(copy);
    // What the edit did not touch is shared, not copied.
    expect(after.declarations[0]).toBe(before.declarations[0]);
  });

  it('sets a declaration-level value for the whole declaration, creating its object when needed', () => {
    const b = setCell(body(), { declaration: 1, holder: 0 }, column('NOM_JDR'), 'Habilitation électrique');
    expect(b.declarations[1]).toEqual({
      id: 'D2',
      certificate: { name: 'Habilitation électrique' },
      holders: [{ nir: '1780592051012' }],
    });
    const c = setCell(body(), { declaration: 0, holder: 1 }, column('NOM_FORMATION'), 'Conduite R489');
    expect((c.declarations[0]!.training as Record<string, unknown>).name).toBe('Conduite R489');
  });

  it('removes the field of an emptied cell', () => {
    const b = setCell(body(), { declaration: 0, holder: 0 }, column('NOM_TITULAIRE'), '');
    expect(b.declarations[0]!.holders).toEqual([
      { nir: '1920469123456', employer_agreement: true },
      { nir: '2010133005078', birth_name: 'GARÇON' },
    ]);
    // Emptying a value under an absent object creates nothing.
    const c = setCell(body(), { declaration: 1, holder: 0 }, column('NOM_JDR'), '');
    expect(c.declarations[1]).toEqual({ id: 'D2', holders: [{ nir: '1780592051012' }] });
  });

  it('writes booleans as true/false and codes as a list split on "/"', () => {
    const b = body();
    const certifying = setCell(b, { declaration: 0, holder: 0 }, column('FORMATION_CERTIFIANTE'), 'NON');
    expect((certifying.declarations[0]!.training as Record<string, unknown>).certifying).toBe(false);
    const agreement = setCell(b, { declaration: 0, holder: 1 }, column('PRESENCE_EMPLOYEUR'), 'OUI');
    expect((agreement.declarations[0]!.holders as unknown[])[1]).toEqual({
      nir: '2010133005078',
      birth_name: 'GARÇON',
      employer_agreement: true,
    });
    const codes = setCell(
      b,
      { declaration: 0, holder: 0 },
      column('COMPETENCE_TRANSFERABLE'),
      '115650/ 400635 /',
    );
    expect(codes.declarations[0]!.transferable_skills).toEqual(['115650', ' 400635 ']);
  });

  it('PRESENCE_FORMATION: NON removes the training, OUI gives an empty one (or keeps the one there)', () => {
    const without = setCell(body(), { declaration: 0, holder: 0 }, column('PRESENCE_FORMATION'), 'NON');
    expect(without.declarations[0]!.training).toBeUndefined();
    const withOne = setCell(body(), { declaration: 1, holder: 0 }, column('PRESENCE_FORMATION'), 'OUI');
    expect(withOne.declarations[1]!.training).toEqual({});
    const kept = setCell(body(), { declaration: 0, holder: 0 }, column('PRESENCE_FORMATION'), 'OUI');
    expect(kept.declarations[0]!.training).toEqual(body().declarations[0]!.training);
  });
});
