import { hasValidSiretKey, isSiretFormat } from './siret';

/** Reference Luhn, written independently of the library's. */
function luhn(digits: string): boolean {
  let sum = 0;
  [...digits].reverse().forEach((c, i) => {
    const d = Number(c) * (i % 2 === 1 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  });
  return sum % 10 === 0;
}
const digitSum = (s: string): number => [...s].reduce((a, c) => a + Number(c), 0);

describe('isSiretFormat', () => {
  it('wants exactly 14 digits', () => {
    expect(isSiretFormat('20005667900018')).toBe(true);
    expect(isSiretFormat('2000566790001')).toBe(false);
    expect(isSiretFormat('200056679000180')).toBe(false);
    expect(isSiretFormat('2000566790001A')).toBe(false);
    expect(isSiretFormat('200 056 679 00018')).toBe(false);
    expect(isSiretFormat('')).toBe(false);
  });
});

describe('hasValidSiretKey', () => {
  it.each([
    ['20005667900018', true],
    ['20005667900019', false],
    ['44123456700010', true],
    ['44123456700011', false],
  ])('%s → %s (Luhn)', (siret, valid) => {
    expect(hasValidSiretKey(siret)).toBe(valid);
    expect(luhn(siret)).toBe(valid);
  });

  it('accepts La Poste 35600000000048', () => {
    expect(hasValidSiretKey('35600000000048')).toBe(true);
  });

  it('accepts a La Poste SIRET whose digit sum is a multiple of 5 even when Luhn fails', () => {
    expect(luhn('35600000000001')).toBe(false);
    expect(digitSum('35600000000001') % 5).toBe(0);
    expect(hasValidSiretKey('35600000000001')).toBe(true);
  });

  it('refuses a La Poste SIRET that passes neither rule', () => {
    expect(luhn('35600000000002')).toBe(false);
    expect(digitSum('35600000000002') % 5).not.toBe(0);
    expect(hasValidSiretKey('35600000000002')).toBe(false);
  });

  it('keeps the digit-sum rule to SIREN 356000000', () => {
    // Digit sum 15 (a multiple of 5), Luhn fails, another SIREN: refused.
    expect(luhn('35700000000000')).toBe(false);
    expect(digitSum('35700000000000') % 5).toBe(0);
    expect(hasValidSiretKey('35700000000000')).toBe(false);
  });
});
