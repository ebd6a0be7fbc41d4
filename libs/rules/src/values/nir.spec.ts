import { NIR_A, NIR_A_KEY, NIR_B, NIR_B_KEY, NIR_CORSICA, NIR_CORSICA_KEY } from '../testing/fixtures';
import { hasValidNirKey, isProvisionalNir, nirKey, nirNumber, nirProblem } from './nir';

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

describe('nirNumber (how a declaration keeps its NIRs to find a holder twice)', () => {
  it('is one number for one NIR: Corsica’s 2A and 2B differ from each other and from 20, 21, 22', () => {
    const nirs = ['1801220012345', '1801221012345', '1801222012345', '180122A012345', '180122B012345'];
    for (const nir of nirs) expect(nirProblem(nir)).toBeNull();
    expect(new Set(nirs.map(nirNumber)).size).toBe(nirs.length);
    expect(nirNumber(NIR_CORSICA)).not.toBe(nirNumber(NIR_CORSICA.replace('2B', '2A')));
  });

  it('is exact: the NIR can be read back from it', () => {
    const back = (n: number): string => {
      const letter = n % 3;
      const digits = String((n - letter) / 3).padStart(13, '0');
      return letter === 0 ? digits : `${digits.slice(0, 6)}${letter === 1 ? 'A' : 'B'}${digits.slice(7)}`;
    };
    for (const nir of [NIR_A, NIR_B, NIR_CORSICA, '180122A012345', '2991299999999', '1000101000001'])
      expect(back(nirNumber(nir))).toBe(nir);
    // Every department of a NIR, 2A and 2B included, over random valid NIRs.
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 48271) % 2147483647), seed % n);
    for (let i = 0; i < 20_000; i++) {
      const dept = random(100) === 0 ? (random(2) ? '2A' : '2B') : String(1 + random(99)).padStart(2, '0');
      const nir = `${1 + random(2)}${String(random(100)).padStart(2, '0')}${String(1 + random(12)).padStart(2, '0')}${dept}${String(random(1000)).padStart(3, '0')}${String(1 + random(999)).padStart(3, '0')}`;
      if (nirProblem(nir) !== null) continue;
      expect(back(nirNumber(nir))).toBe(nir);
    }
  });
});
