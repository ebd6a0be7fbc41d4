import { charLength, hasForbiddenCharacter, isHttpUrl, looksLikeFormula } from './text';

describe('hasForbiddenCharacter', () => {
  it.each(['a|b', 'a\rb', 'a\nb', '\r\n', 'a\tb', 'a\u0000b', 'a\u007fb'])('refuses %j', (value) => {
    expect(hasForbiddenCharacter(value)).toBe(true);
  });

  it.each(['DUPONT', 'Élodie Ñúñez', 'O"BRIEN', 'a/b', 'RS6550', '😀'])('accepts %j', (value) => {
    expect(hasForbiddenCharacter(value)).toBe(false);
  });
});

describe('looksLikeFormula', () => {
  it.each(['=SUM(A1)', '+33', '-1', '@cmd'])('flags %j', (value) => {
    expect(looksLikeFormula(value)).toBe(true);
  });

  it.each(['a=1', ' =1', 'DUPONT-MARTIN', ''])('does not flag %j', (value) => {
    expect(looksLikeFormula(value)).toBe(false);
  });
});

describe('charLength', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(charLength('É'.repeat(30))).toBe(30);
    expect(charLength('😀😀')).toBe(2);
    expect('😀😀'.length).toBe(4);
    expect(charLength('')).toBe(0);
  });
});

describe('isHttpUrl', () => {
  it.each(['https://certificats.example.org/sst/1', 'http://example.org', 'HTTPS://EXAMPLE.ORG/A?b=c#d'])(
    'accepts %s',
    (url) => {
      expect(isHttpUrl(url)).toBe(true);
    },
  );

  it.each([
    'ftp://example.org/x',
    'example.org/x',
    '//example.org/x',
    'https://',
    'https://exa mple.org',
    'javascript:alert(1)',
    '/relative',
  ])('refuses %s', (url) => {
    expect(isHttpUrl(url)).toBe(false);
  });
});
