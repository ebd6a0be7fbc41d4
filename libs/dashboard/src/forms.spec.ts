import { MESSAGES } from './i18n';
import { KeyForm, PasswordForm, readPageForm, SignInForm } from './forms';

const read = <T extends object>(Form: new () => T, body: unknown, lang: 'en' | 'fr' = 'en') =>
  readPageForm(Form, body, MESSAGES[lang], lang);

describe('the dashboard forms (DTO classes, the page’s own texts)', () => {
  it('key creation: a mode, a name cleaned and at most 100 characters', () => {
    expect(read(KeyForm, { _csrf: 'x', mode: 'live', name: '  payroll\u0007export ' })).toEqual({
      form: Object.assign(new KeyForm(), { mode: 'live', name: 'payroll export' }),
      problems: [],
    });
    expect(read(KeyForm, { name: 'x' }).problems).toEqual(['Choose test or live.']);
    expect(read(KeyForm, { mode: ['test', 'live'] }, 'fr').problems).toEqual(['Choisissez test ou live.']);
    // Characters, not UTF-16 units: 100 emoji fit, 101 do not.
    expect(read(KeyForm, { mode: 'test', name: '🔑'.repeat(100) }).problems).toEqual([]);
    expect(read(KeyForm, { mode: 'test', name: '🔑'.repeat(101) }).problems).toEqual([
      'The name can have at most 100 characters.',
    ]);
    // Both wrong: the mode is named first, as the page always did.
    expect(read(KeyForm, { name: 'n'.repeat(101) }).problems[0]).toBe('Choose test or live.');
  });

  it('sign-in and password forms: text as typed, anything else empty, extra fields dropped', () => {
    const { form, problems } = read(SignInForm, {
      email: ['a@x', 'b@x'],
      password: 'pw',
      next: '/dashboard/keys',
      _csrf: 't',
    });
    expect(problems).toEqual([]);
    expect(form).toEqual(
      Object.assign(new SignInForm(), { email: '', password: 'pw', next: '/dashboard/keys' }),
    );
    expect(read(PasswordForm, undefined).form).toMatchObject({ current: '', password: '', confirmation: '' });
  });
});
