import {
  charLength,
  codePointName,
  forbiddenCharacter,
  hasForbiddenCharacter,
  isHttpUrl,
  looksLikeFormula,
  trimWhiteSpace,
  type CharacterProblem,
} from './text';

describe('hasForbiddenCharacter', () => {
  it.each(['a|b', 'a\rb', 'a\nb', '\r\n', 'a\tb', 'a\u0000b', 'a\u007fb'])('refuses %j', (value) => {
    expect(hasForbiddenCharacter(value)).toBe(true);
  });

  it.each([
    'DUPONT',
    'Élodie Ñúñez',
    'O"BRIEN',
    'a/b',
    'RS6550',
    '😀',
    'D\u2019ARC',
    'DU\u00a0PONT',
    'E\u0301LODIE',
    'Ω',
    '中文',
    'ελληνικά',
  ])('accepts %j', (value) => {
    expect(hasForbiddenCharacter(value)).toBe(false);
  });
});

describe('forbiddenCharacter: the first character refused, its code point and why', () => {
  it.each<[string, string, number, CharacterProblem]>([
    ['|', 'A|B', 0x7c, 'separator'],
    ['LF', 'A\nB', 0x0a, 'line_break'],
    ['NEL', 'A\u0085B', 0x85, 'line_break'],
    ['U+2029', 'A\u2029B', 0x2029, 'line_break'],
    ['tab', 'A\tB', 0x09, 'control'],
    ['ESC', 'A\u001bB', 0x1b, 'control'],
    ['zero-width space', 'DU\u200bPONT', 0x200b, 'invisible'],
    ['zero-width non-joiner', 'DU\u200cPONT', 0x200c, 'invisible'],
    ['zero-width joiner', 'DU\u200dPONT', 0x200d, 'invisible'],
    ['word joiner', 'DU\u2060PONT', 0x2060, 'invisible'],
    ['BOM at the start', '\ufeffDUPONT', 0xfeff, 'invisible'],
    ['BOM inside', 'DU\ufeffPONT', 0xfeff, 'invisible'],
    ['right-to-left override', 'DU\u202ePONT', 0x202e, 'invisible'],
    ['left-to-right mark', 'DU\u200ePONT', 0x200e, 'invisible'],
    ['first strong isolate', 'DU\u2068PONT', 0x2068, 'invisible'],
    ['soft hyphen', 'DU\u00adPONT', 0xad, 'invisible'],
    ['tag character', 'DU\u{e0041}PONT', 0xe0041, 'invisible'],
    ['cancel tag', 'DU\u{e007f}PONT', 0xe007f, 'invisible'],
    ['language tag', 'DU\u{e0001}PONT', 0xe0001, 'invisible'],
    ['Hangul choseong filler', 'DU\u115fPONT', 0x115f, 'invisible'],
    ['Hangul jungseong filler', 'DU\u1160PONT', 0x1160, 'invisible'],
    ['Hangul filler', '\u3164', 0x3164, 'invisible'],
    ['halfwidth Hangul filler', 'DU\uffa0PONT', 0xffa0, 'invisible'],
    ['combining grapheme joiner', 'DU\u034fPONT', 0x34f, 'invisible'],
    ['variation selector 16', 'DU\ufe0fPONT', 0xfe0f, 'invisible'],
    ['Mongolian vowel separator', 'DU\u180ePONT', 0x180e, 'invisible'],
    ['lone high surrogate', 'DU\ud800PONT', 0xd800, 'surrogate'],
    ['lone low surrogate', 'DU\udc00PONT', 0xdc00, 'surrogate'],
    ['surrogates in the wrong order', 'DU\ude00\ud83dPONT', 0xde00, 'surrogate'],
    ['high surrogate at the end', 'DUPONT\ud83d', 0xd83d, 'surrogate'],
    ['replacement character', 'DU\ufffdPONT', 0xfffd, 'damaged'],
    ['U+FFFF', 'DU\uffffPONT', 0xffff, 'noncharacter'],
    ['U+FFFE', 'DU\ufffePONT', 0xfffe, 'noncharacter'],
    ['U+FDD0', 'DU\ufdd0PONT', 0xfdd0, 'noncharacter'],
    ['U+FDEF', 'DU\ufdefPONT', 0xfdef, 'noncharacter'],
    ['U+1FFFE', 'DU\u{1fffe}PONT', 0x1fffe, 'noncharacter'],
    ['U+10FFFF', 'DU\u{10ffff}PONT', 0x10ffff, 'noncharacter'],
    ['private use U+E000', 'DU\ue000PONT', 0xe000, 'private_use'],
    ['private use U+F8FF', 'DU\uf8ffPONT', 0xf8ff, 'private_use'],
    ['private use plane 15', 'DU\u{f0000}PONT', 0xf0000, 'private_use'],
    ['private use plane 16', 'DU\u{10fffd}PONT', 0x10fffd, 'private_use'],
    ['a default-ignorable mark at the start is invisible', '\u034fDUPONT', 0x34f, 'invisible'],
    ['a variation selector at the start is invisible', '\ufe0fDUPONT', 0xfe0f, 'invisible'],
    ['a combining mark at the start', '\u0301DUPONT', 0x301, 'combining_start'],
    ['combining marks only', '\u0301\u0308', 0x301, 'combining_start'],
    ['an enclosing mark at the start', '\u20ddA', 0x20dd, 'combining_start'],
    ['a spacing mark at the start', '\u0903A', 0x903, 'combining_start'],
  ])('%s', (_name, value, codePoint, problem) => {
    expect(forbiddenCharacter(value)).toEqual({ codePoint, problem });
    expect(hasForbiddenCharacter(value)).toBe(true);
  });

  it('every noncharacter: U+FDD0–U+FDEF and the last two code points of each of the 17 planes', () => {
    const all = [...Array.from({ length: 32 }, (_, i) => 0xfdd0 + i)];
    for (let plane = 0; plane <= 0x10; plane++) all.push(plane * 0x10000 + 0xfffe, plane * 0x10000 + 0xffff);
    expect(all).toHaveLength(66);
    for (const cp of all) {
      expect([codePointName(cp), forbiddenCharacter(`A${String.fromCodePoint(cp)}`)?.problem]).toEqual([
        codePointName(cp),
        'noncharacter',
      ]);
    }
  });

  it('over every code point, inside a value: refused exactly when in the classes of the rule', () => {
    // The rule as values/text.ts states it, written here on its own; forbiddenCharacter's quick
    // filters (ASCII, then the BMP code units without the `u` flag) must never let one through.
    const rule =
      /^[|\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}\ufffd\p{Noncharacter_Code_Point}\p{Default_Ignorable_Code_Point}]$/u;
    const odd: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const c = String.fromCodePoint(cp);
      if ((forbiddenCharacter(`A${c}B`) !== null) !== rule.test(c)) odd.push(codePointName(cp));
    }
    expect(odd).toEqual([]);
  });

  it('over every code point, first in a value: refused too when it is a combining mark', () => {
    const odd: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      const c = String.fromCodePoint(cp);
      const refused = forbiddenCharacter(`${c}A`) !== null;
      if (refused !== (forbiddenCharacter(`A${c}`) !== null || /^\p{M}$/u.test(c)))
        odd.push(codePointName(cp));
    }
    expect(odd).toEqual([]);
  });

  it('every tag character U+E0000–U+E007F', () => {
    for (let cp = 0xe0000; cp <= 0xe007f; cp++) {
      expect(forbiddenCharacter(`A${String.fromCodePoint(cp)}`)?.problem).toBe('invisible');
    }
  });

  it('the first refused character is the one named', () => {
    expect(forbiddenCharacter('A\u200bB|C')).toEqual({ codePoint: 0x200b, problem: 'invisible' });
    expect(forbiddenCharacter('\u0301A\u200b')).toEqual({ codePoint: 0x301, problem: 'combining_start' });
  });

  it('a combining mark is refused only at the start of the value', () => {
    expect(forbiddenCharacter('E\u0301')).toBeNull();
    expect(forbiddenCharacter('DU PONT\u0301')).toBeNull();
    expect(forbiddenCharacter(' \u0301')).toBeNull();
  });

  it('a surrogate pair is one character, never refused as two halves', () => {
    expect(forbiddenCharacter('\ud83d\ude00')).toBeNull();
    expect(forbiddenCharacter('𝔇𝔘𝔓𝔒𝔑𝔗')).toBeNull();
  });

  it('names a code point with at least four hex digits', () => {
    expect(codePointName(0x7c)).toBe('U+007C');
    expect(codePointName(0xfeff)).toBe('U+FEFF');
    expect(codePointName(0xe0041)).toBe('U+E0041');
    expect(codePointName(0x10ffff)).toBe('U+10FFFF');
  });
});

describe('trimWhiteSpace: Unicode White_Space at either end, but NEL', () => {
  it.each([
    ['  DUPONT  ', 'DUPONT'],
    ['\r\nDUPONT\r\n', 'DUPONT'],
    ['\tDU PONT\u000b\u000c', 'DU PONT'],
    ['\u00a0\u2003DUPONT\u3000\u202f', 'DUPONT'],
    ['\u2028DUPONT\u2029', 'DUPONT'],
    ['\u1680\u205fA', 'A'],
    ['   ', ''],
    ['', ''],
  ])('%j → %j', (value, trimmed) => {
    expect(trimWhiteSpace(value)).toBe(trimmed);
  });

  it.each(['\ufeffDUPONT', 'DUPONT\ufeff', '\u200bDUPONT', 'DUPONT\u200b', '\u0085DUPONT', 'DUPONT\u0085'])(
    'keeps %j as it is (a character refused, not white space)',
    (value) => {
      expect(trimWhiteSpace(value)).toBe(value);
      expect(trimWhiteSpace(` ${value} `)).toBe(value);
    },
  );

  it('removes exactly \\p{White_Space} but U+0085, over every code point', () => {
    const odd: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const expected = /\p{White_Space}/u.test(c) && cp !== 0x85;
      if ((trimWhiteSpace(`${c}A${c}`) === 'A') !== expected) odd.push(cp);
    }
    expect(odd).toEqual([]);
  });
});

describe('looksLikeFormula', () => {
  it.each(['=SUM(A1)', '+33', '-1', '@cmd', ' =1+1', '\u3000=1+1', '\u00a0@cmd'])('flags %j', (value) => {
    expect(looksLikeFormula(value)).toBe(true);
  });

  it.each([
    ['fullwidth =', '\uff1d1+1'],
    ['fullwidth +', '\uff0b33'],
    ['fullwidth -', '\uff0d1'],
    ['fullwidth @', '\uff20cmd'],
    ['small +', '\ufe621'],
    ['small -', '\ufe631'],
    ['small =', '\ufe661+1'],
    ['small @', '\ufe6bcmd'],
    ['superscript +', '\u207a1'],
    ['fullwidth = after white space', ' \uff1d1+1'],
    ['= followed by a combining mark (NFKC of the value would give ≠)', '=\u03381'],
    ['fullwidth = followed by a combining mark', '\uff1d\u03381'],
  ])('flags %s (NFKC of the first character)', (_name, value) => {
    expect(looksLikeFormula(value)).toBe(true);
  });

  it.each(['a=1', 'DUPONT-MARTIN', '', '   ', '\u2212 1', 'É=1', '≠1', '\u0085=1'])(
    'does not flag %j',
    (value) => {
      expect(looksLikeFormula(value)).toBe(false);
    },
  );
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
