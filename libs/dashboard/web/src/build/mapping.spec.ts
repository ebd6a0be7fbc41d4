import { describe, expect, it } from '@jest/globals';
import { mappingToSave, type mappingOf } from './mapping';

describe('mappingToSave (what the page saves for the organization)', () => {
  const result = {
    mapping: [
      { header: 'N° sécu', column: 'NIR', cell: 'D1', how: 'synonym' },
      { header: 'Nom', column: 'NOM_TITULAIRE', cell: 'E1', how: 'label' },
    ],
    unmapped_headers: ['Commentaire', 'Jean DUPONT', 'Ancien'],
  } as Parameters<typeof mappingOf>[0];

  it('sends the headers mapped to a column, not every unrecognised header as null', () => {
    const draft = {
      'N° sécu': 'NIR',
      Nom: 'NOM_TITULAIRE',
      Commentaire: null,
      'Jean DUPONT': null,
      Ancien: null,
    };
    expect(mappingToSave(draft, result, {})).toEqual({ 'N° sécu': 'NIR', Nom: 'NOM_TITULAIRE' });
  });

  it('sends what the person changed: a recognised header ignored, an unrecognised one mapped, one given before', () => {
    const draft = {
      'N° sécu': 'NIR',
      Nom: null,
      Commentaire: 'REFERENCE_EMPLOYEUR',
      'Jean DUPONT': null,
      Ancien: null,
    };
    expect(mappingToSave(draft, result, { Ancien: null })).toEqual({
      'N° sécu': 'NIR',
      Nom: null,
      Commentaire: 'REFERENCE_EMPLOYEUR',
      Ancien: null,
    });
  });
});
