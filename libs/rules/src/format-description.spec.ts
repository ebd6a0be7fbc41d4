import { describeSpec, searchReferences } from './format-description';
import { SPEC_2026_02 } from './format/v2026-02';
import { testReferences } from './testing/fixtures';

describe('describeSpec', () => {
  const d = describeSpec(SPEC_2026_02, testReferences());

  it('lists the four kinds with their columns in official order', () => {
    expect(d.kinds.map((k) => `${k.type}/${k.declarant}`)).toEqual([
      'adf/employer',
      'adf/training_organization',
      'jdr/employer',
      'jdr/training_organization',
    ]);
    expect(d.kinds.map((k) => k.columns.length)).toEqual([20, 20, 29, 29]);
    expect(d.kinds[0]!.columns[0]).toMatchObject({
      position: 1,
      name: 'ID_DECLARATION',
      required: 'required',
      max_length: 255,
    });
  });

  it('states the declarant rules', () => {
    const col = (kind: number, name: string) => d.kinds[kind]!.columns.find((c) => c.name === name)!;
    expect(col(0, 'SIRET_EMPLOYEUR').required).toBe('empty');
    expect(col(1, 'SIRET_EMPLOYEUR').required).toBe('required when PRESENCE_EMPLOYEUR = OUI, else empty');
    expect(col(1, 'COMPETENCE_TRANSFERABLE').value_count).toEqual({ min: 3, max: 10 });
    expect(col(0, 'COMPETENCE_TRANSFERABLE').value_count).toEqual({ min: 0, max: 10 });
    expect(col(3, 'NOM_FORMATION').required).toBe('required when PRESENCE_FORMATION = OUI, else empty');
  });

  it('gives the trainer qualifications and the reference lists', () => {
    expect(d.enumerations.QUALIFICATION_FORMATEUR!.map((e) => e.code)).toContain('RESPONSABLE_QHSE');
    expect(d.reference_lists.map((l) => l.name)).toEqual(['rome', 'formacode', 'nsf', 'rs']);
    expect(d.limits.rows_per_request_test).toBe(50);
  });
});

describe('searchReferences', () => {
  const refs = testReferences();
  it('pages through codes with a cursor', () => {
    const first = searchReferences(refs, 'rome', { limit: 4 });
    expect(first.items.map((i) => i.code)).toEqual(['102382', '103885', '114955', '115650']);
    expect(first.next_cursor).toBe('115650');
    const second = searchReferences(refs, 'rome', { limit: 4, cursor: first.next_cursor! });
    expect(second.items[0]!.code).toBe('119571');
  });
  it('filters by code or label, case-insensitively', () => {
    expect(searchReferences(refs, 'rs', { q: 'rs65' }).items.map((i) => i.code)).toEqual(['RS6550']);
    expect(searchReferences(refs, 'rs', { q: 'LABEL RS5635' }).items.map((i) => i.code)).toEqual(['RS5635']);
    expect(searchReferences(refs, 'rs', { q: 'nothing' })).toEqual({ items: [], next_cursor: null });
  });
});
