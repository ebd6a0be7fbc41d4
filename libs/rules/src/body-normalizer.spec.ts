import { validateDeclarations } from './api';
import { normalizeBody } from './body-normalizer';
import { RequestError } from './request';
import { NIR_A, NIR_A_KEY, SIRET_A } from './testing/fixtures';
import { body, decl, holderOf, KINDS, located, testEnv, training, type Json } from './testing/format-helpers';

/** A body whose values need every rule of API.md §5. */
function messyBody(): Json {
  const b = body('adf', 'training_organization', 2);
  training(b).start_date = ' 2026-09-14';
  training(b).delivery_mode = 'presentiel';
  training(b).nsf_codes = ['344R', '344p'];
  decl(b).reference = 'Session SST cafe\u0301';
  holderOf(b, 0).nir = `${NIR_A.slice(0, 1)} ${NIR_A.slice(1, 3)} ${NIR_A.slice(3)}${NIR_A_KEY}`;
  holderOf(b, 1).employer_siret = `${SIRET_A.slice(0, 9)}.${SIRET_A.slice(9)}`;
  return b;
}

describe('normalizeBody (API.md §5 applied to a body, with the values before and after)', () => {
  it('applies each rule and says what changed, value by value', () => {
    const { body: out, changes } = normalizeBody(messyBody(), 'en');
    expect(changes).toEqual([
      {
        row: 1,
        field: 'declarations[0].reference',
        column: 'REFERENCE_DECLARATION',
        rule: 'UNICODE_NFC',
        rules: ['UNICODE_NFC'],
        from: 'Session SST cafe\u0301',
        to: 'Session SST caf\u00e9',
      },
      expect.objectContaining({
        field: 'declarations[0].training.start_date',
        rules: ['WHITESPACE_TRIMMED', 'DATE_REFORMATTED'],
        from: ' 2026-09-14',
        to: '14/09/2026',
      }),
      expect.objectContaining({ field: 'declarations[0].training.end_date', rule: 'DATE_REFORMATTED' }),
      expect.objectContaining({
        field: 'declarations[0].training.delivery_mode',
        rule: 'ENUM_UPPERCASED',
        from: 'presentiel',
        to: 'PRESENTIEL',
      }),
      expect.objectContaining({
        field: 'declarations[0].training.nsf_codes[0]',
        rule: 'CODE_NORMALIZED',
        from: '344R',
        to: '344r',
      }),
      expect.objectContaining({
        field: 'declarations[0].holders[0].nir',
        rules: ['SEPARATORS_REMOVED', 'NIR_KEY_REMOVED'],
        to: NIR_A,
      }),
      expect.objectContaining({
        field: 'declarations[0].holders[0].validity_start',
        rule: 'DATE_REFORMATTED',
      }),
      expect.objectContaining({ field: 'declarations[0].holders[0].validity_end', rule: 'DATE_REFORMATTED' }),
      expect.objectContaining({
        field: 'declarations[0].holders[1].employer_siret',
        rule: 'SEPARATORS_REMOVED',
        to: SIRET_A,
      }),
      expect.objectContaining({
        field: 'declarations[0].holders[1].validity_start',
        rule: 'DATE_REFORMATTED',
      }),
      expect.objectContaining({ field: 'declarations[0].holders[1].validity_end', rule: 'DATE_REFORMATTED' }),
    ]);
    expect(training(out).start_date).toBe('14/09/2026');
    expect(holderOf(out, 0).nir).toBe(NIR_A);
  });

  it('leaves the input as it was', () => {
    const input = messyBody();
    const copy = structuredClone(input);
    normalizeBody(input, 'en');
    expect(input).toEqual(copy);
  });

  it.each(KINDS)(
    '%s/%s: the normalized body validates with no normalization left, the same errors, and one change per value the validation normalizes',
    (type, declarant) => {
      const b = body(type, declarant, 3);
      // A value no rule can make valid stays as it is, and is still an error.
      holderOf(b, 2).nir = ' 12 34 ';
      training(b).start_date = '31/02/2026';
      const before = validateDeclarations(b, testEnv());
      const { body: out, changes } = normalizeBody(b, 'en');
      const after = validateDeclarations(out, testEnv());
      expect(after.normalization_count).toBe(0);
      expect(located(after.errors)).toEqual(located(before.errors));
      expect(after.error_count).toBeGreaterThan(0);
      expect(changes.flatMap((c) => c.rules.map((rule) => `${c.field} ${rule}`))).toEqual(
        before.normalizations.map((n) => `${n.field} ${n.rule}`),
      );
    },
  );

  it('refuses a body the API would refuse, as the API does', () => {
    expect(() => normalizeBody({ type: 'adf', declarations: 'x' }, 'fr')).toThrow(RequestError);
  });
});
