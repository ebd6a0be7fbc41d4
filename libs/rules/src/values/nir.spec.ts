import { NIR_A, NIR_A_KEY, NIR_B, NIR_B_KEY, NIR_CORSICA, NIR_CORSICA_KEY } from '../testing/fixtures';
import { hasValidNirKey, isProvisionalNir, nirKey, nirProblem } from './nir';

/** sex(1) year(2) month(2) département(2) commune(3) order(3), defaults from NIR_A (2 55 08 14 168 025). */
function nir(
  parts: { sex?: string; year?: string; month?: string; dep?: string; commune?: string; order?: string } = {},
): string {
  const { sex = '2', year = '55', month = '08', dep = '14', commune = '168', order = '025' } = parts;
  return `${sex}${year}${month}${dep}${commune}${order}`;
}

describe('nirKey', () => {
  it.each([
    ['2550814168025', '38'],
    ['1850578006084', '91'],
    ['180122B012345', '75'],
  ])('%s has key %s', (nir13, key) => {
    expect(nirKey(nir13)).toBe(key);
  });

  it('agrees with the fixtures', () => {
    expect(nirKey(NIR_A)).toBe(NIR_A_KEY);
    expect(nirKey(NIR_B)).toBe(NIR_B_KEY);
    expect(nirKey(NIR_CORSICA)).toBe(NIR_CORSICA_KEY);
  });

  it('reads Corsica 2A as 19 and 2B as 18 (97 − number mod 97)', () => {
    expect(nirKey('180122A012345')).toBe(String(97 - Number(1801219012345n % 97n)).padStart(2, '0'));
    expect(nirKey('180122A012345')).toBe('48');
    expect(nirKey('180122B012345')).toBe(String(97 - Number(1801218012345n % 97n)).padStart(2, '0'));
  });

  it('pads one-digit keys and gives 97 for a multiple of 97', () => {
    expect(nirKey('1850578006069')).toBe('09');
    expect(nirKey('1850578006077')).toBe('01');
    expect(nirKey('1850578006078')).toBe('97');
  });

  it('gives no key for a value that is not 13 digits', () => {
    expect(nirKey('185057800608')).toBe('');
    expect(nirKey('18505780060X4')).toBe('');
  });
});

describe('hasValidNirKey', () => {
  it('accepts the 15-character NIRs of the vectors', () => {
    expect(hasValidNirKey('255081416802538')).toBe(true);
    expect(hasValidNirKey('185057800608491')).toBe(true);
    expect(hasValidNirKey('180122B01234575')).toBe(true);
  });

  it('refuses a wrong key and any other length', () => {
    expect(hasValidNirKey('255081416802539')).toBe(false);
    expect(hasValidNirKey('180122B01234548')).toBe(false);
    expect(hasValidNirKey(NIR_A)).toBe(false);
    expect(hasValidNirKey('25508141680253')).toBe(false);
    expect(hasValidNirKey('2550814168025380')).toBe(false);
  });
});

describe('nirProblem', () => {
  it('accepts possible NIRs, Corsica included', () => {
    expect(nirProblem(NIR_A)).toBeNull();
    expect(nirProblem(NIR_B)).toBeNull();
    expect(nirProblem(nir({ dep: '2A' }))).toBeNull();
    expect(nirProblem(nir({ dep: '2B' }))).toBeNull();
    expect(nirProblem(nir({ dep: '97', commune: '411' }))).toBeNull();
  });

  it('checks the length first', () => {
    expect(nirProblem('255081416802')).toBe('length');
    expect(nirProblem('25508141680253')).toBe('length');
    expect(nirProblem('')).toBe('length');
    expect(nirProblem('255081416802538')).toBe('length');
  });

  it.each(['0', '5', '6', '9', 'A'])('refuses the sex digit %s', (sex) => {
    expect(nirProblem(nir({ sex }))).toBe('sex');
  });

  it.each(['1', '2', '3', '4', '7', '8'])('accepts the sex digit %s', (sex) => {
    expect(nirProblem(nir({ sex }))).toBeNull();
  });

  it.each(['00', '13', '19', '43', '49'])('refuses the month %s', (month) => {
    expect(nirProblem(nir({ month }))).toBe('month');
  });

  it.each(['01', '12', '20', '42', '50', '99'])(
    'accepts the month %s (INSEE: 01–12, 20–42, 50–99)',
    (month) => {
      expect(nirProblem(nir({ month }))).toBeNull();
    },
  );

  it.each(['00', '2C', 'A2', '1A'])('refuses the département %s', (dep) => {
    expect(nirProblem(nir({ dep }))).toBe('department');
  });

  it('refuses the order number 000', () => {
    expect(nirProblem(nir({ order: '000' }))).toBe('order');
    expect(nirProblem(nir({ order: '001' }))).toBeNull();
  });

  it('refuses a letter where a digit must be', () => {
    expect(nirProblem(nir({ year: '5X' }))).toBe('digits');
    expect(nirProblem(nir({ commune: '16A' }))).toBe('digits');
    expect(nirProblem(nir({ order: '02 ' }))).toBe('digits');
  });
});

describe('isProvisionalNir', () => {
  it.each([
    ['1', false],
    ['2', false],
    ['3', true],
    ['4', true],
    ['7', true],
    ['8', true],
  ])('sex digit %s → %s', (sex, provisional) => {
    expect(isProvisionalNir(nir({ sex }))).toBe(provisional);
  });
});
