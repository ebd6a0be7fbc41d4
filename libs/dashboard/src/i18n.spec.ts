import { dashboardLang, Formats, MESSAGES } from './i18n';

/** Every text of a catalogue, by path ("keys.revoke"), functions called with sample arguments. */
function texts(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function')
    return [[path, String((value as (...a: unknown[]) => unknown)('X', 'Y', 'Z'))]];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    texts(v, path ? `${path}.${k}` : k),
  );
}

describe('dashboard texts', () => {
  it('English and French have the same texts, none empty, none left in the other language', () => {
    const en = texts(MESSAGES.en);
    const fr = texts(MESSAGES.fr);
    expect(fr.map(([p]) => p)).toEqual(en.map(([p]) => p));
    for (const [p, text] of [...en, ...fr])
      expect({ p, empty: text.trim() === '' }).toEqual({ p, empty: false });
    // Translated, except words that are the same in both (names, codes, "Live"/"Test").
    const same = en.filter(([p, text]) => fr.find(([q]) => q === p)![1] === text).map(([p]) => p);
    expect(
      same.filter(
        (p) =>
          !/^(plans|modes)\.|^(keys\.(mode|modeTest|modeLive|introHeader|active)|tryIt\.(typeAdf|typeJdr|code|message)|nav\.(docs)|keys\.prefix)$/.test(
            p,
          ),
      ),
    ).toEqual([]);
  });

  it('the language: the switch’s cookie, else Accept-Language', () => {
    const pick = (v: string | undefined) => (v?.startsWith('fr') ? 'fr' : 'en');
    expect(dashboardLang('fr', 'en-GB', pick)).toBe('fr');
    expect(dashboardLang('en', 'fr-FR', pick)).toBe('en');
    expect(dashboardLang(undefined, 'fr-FR,fr;q=0.9', pick)).toBe('fr');
    expect(dashboardLang('de', 'en-US', pick)).toBe('en');
  });
});

describe('Formats', () => {
  const en = new Formats('en');
  const fr = new Formats('fr');

  it('numbers and percentages in each language', () => {
    expect(en.number(12345)).toBe('12,345');
    expect(fr.number(12345)).toBe('12\u202f345');
    expect(en.percent(0.0035)).toBe('0.4%');
    expect(fr.percent(0.5)).toBe('50\u00a0%');
  });

  it('the reset day in UTC; French writes the 1st "1er"', () => {
    const reset = new Date('2026-12-01T00:00:00Z');
    expect(en.utcDate(reset)).toBe('1 December 2026');
    expect(fr.utcDate(reset)).toBe('1er décembre 2026');
    expect(fr.utcDate(new Date('2026-12-02T00:00:00Z'))).toBe('2 décembre 2026');
  });

  it('durations count down in days, hours and minutes', () => {
    expect(en.duration(23 * 3600_000 + 59 * 60_000 + 59_000)).toBe('23 h 59 min');
    expect(en.duration(26 * 3600_000)).toBe('1 d 2 h');
    expect(fr.duration(26 * 3600_000)).toBe('1 j 2 h');
    expect(en.duration(30_000)).toBe('1 min');
    expect(en.ago(new Date(0), new Date(30_000))).toBe('just now');
    expect(fr.ago(new Date(0), new Date(5 * 60_000))).toBe('il y a 5 min');
  });

  it('dates in Paris time, without the year within the current one', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    expect(en.shortDateTime(new Date('2026-11-23T15:01:00Z'), now)).toBe('23 Nov, 16:01');
    expect(en.shortDateTime(new Date('2025-11-23T15:01:00Z'), now)).toBe('23 Nov 2025, 16:01');
    expect(fr.longMonth('2026-11')).toBe('novembre 2026');
    expect(en.shortMonth('2026-01')).toBe('Jan');
  });
});
