import {
  hashPassword,
  needsRehash,
  newPasswordProblem,
  parseHash,
  SCRYPT_PARAMS,
  verifyPassword,
} from './passwords';

/** Small parameters keep the unit tests fast; the format and the checks are the same. */
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('password hashing (scrypt)', () => {
  it('stores the parameters, a 16-byte salt and a 32-byte key with the hash', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/);
    const parsed = parseHash(stored)!;
    expect(parsed.params).toEqual(SCRYPT_PARAMS);
    expect(parsed.salt).toHaveLength(16);
    expect(parsed.key).toHaveLength(32);
    expect(stored).not.toContain('correct horse');
  });

  it('verifies the right password, refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery staple', FAST);
    await expect(verifyPassword('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse battery stapl', stored)).resolves.toBe(false);
    await expect(verifyPassword('Correct horse battery staple', stored)).resolves.toBe(false);
    await expect(verifyPassword('', stored)).resolves.toBe(false);
  });

  it('uses a fresh salt each time: the same password never gives the same hash', async () => {
    const a = await hashPassword('same password here', FAST);
    const b = await hashPassword('same password here', FAST);
    expect(a).not.toBe(b);
    expect(parseHash(a)!.salt.equals(parseHash(b)!.salt)).toBe(false);
  });

  it('verifies with the parameters stored in the hash, not today’s', async () => {
    const old = await hashPassword('an older password', FAST);
    await expect(verifyPassword('an older password', old)).resolves.toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('x', SCRYPT_PARAMS))).toBe(false);
  });

  it('compares passwords after Unicode normalization (é composed or decomposed)', async () => {
    const stored = await hashPassword('mot de passe \u00e9t\u00e9 2026', FAST);
    await expect(verifyPassword('mot de passe e\u0301te\u0301 2026', stored)).resolves.toBe(true);
  });

  it('refuses (after spending the same work) a missing, malformed or out-of-bounds hash', async () => {
    await expect(verifyPassword('anything', null)).resolves.toBe(false);
    await expect(verifyPassword('anything', 'plain-text-password')).resolves.toBe(false);
    const good = await hashPassword('pw', FAST);
    const [, , r, p, salt, key] = good.split('$');
    // N not a power of two, N or memory too large, p too large, salt too short.
    for (const bad of [
      `scrypt$1000$${r}$${p}$${salt}$${key}`,
      `scrypt$${2 ** 22}$${r}$${p}$${salt}$${key}`,
      `scrypt$${2 ** 20}$32$${p}$${salt}$${key}`,
      `scrypt$1024$${r}$99$${salt}$${key}`,
      `scrypt$1024$${r}$${p}$AAAA$${key}`,
    ]) {
      expect(parseHash(bad)).toBeNull();
      await expect(verifyPassword('pw', bad)).resolves.toBe(false);
    }
  });
});

describe('new password rules', () => {
  const EMAIL = 'claire.martin@example.org';
  const problem = (password: string, email = EMAIL) => newPasswordProblem(password, password, email);

  it.each([
    ['short', 'short', 'too_short'],
    ['', '', 'too_short'],
    ['x'.repeat(257), 'x'.repeat(257), 'too_long'],
    ['Someone@Example.org', 'Someone@Example.org', 'contains_email'],
    ['a long enough password', 'a long enough passwor', 'mismatch'],
    ['a long enough password', 'a long enough password', null],
  ])('%s → %s', (password, confirmation, expected) => {
    expect(newPasswordProblem(password, confirmation, 'someone@example.org')).toBe(expected);
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    const twelve = '😀🐱🌍🎉🚲🍕🎸🌵🦊🧩📚🌈';
    expect(newPasswordProblem(twelve, twelve, 'a@b.c')).toBeNull();
    expect(newPasswordProblem([...twelve].slice(1).join(''), '', 'a@b.c')).toBe('too_short');
  });

  it('refuses blank passwords: spaces, tabs, no-break spaces', () => {
    for (const blank of [' '.repeat(12), ' '.repeat(3), '\t'.repeat(20), '\u00a0\u3000'.repeat(8)])
      expect({ blank, problem: problem(blank) }).toEqual({ blank, problem: 'blank' });
  });

  it('refuses the e-mail address or its local part inside the password', () => {
    expect(problem('my claire.martin password')).toBe('contains_email');
    expect(problem('ClaireMartin-is-my-name')).toBe('contains_email');
    expect(problem('xx CLAIRE.MARTIN@EXAMPLE.ORG xx')).toBe('contains_email');
    // A local part of one or two letters says nothing: not looked for.
    expect(
      newPasswordProblem('jo has a long passphrase', 'jo has a long passphrase', 'jo@example.org'),
    ).toBeNull();
  });

  it.each([
    'aaaaaaaaaaaa',
    'AAAAAAAAAAAAAAAA',
    'abcabcabcabc',
    '121212121212',
    'xyzxyzxyzxyz2026',
    'passwordpasswordpassword',
    'aaaaaaaaaaaa!!!!',
    'ab ab ab ab ab ab',
  ])('refuses %j: repeated', (password) => {
    expect(problem(password)).toBe('repeated');
  });

  it.each([
    '123456789012',
    '098765432109',
    'abcdefghijkl',
    'ABCDEFGHIJKLMNOP',
    'lkjihgfedcba',
    'qwertyuiopasdf',
    'azertyuiopqsdf',
    'aaaa12345678',
    'defghijk2026!',
  ])('refuses %j: a sequence', (password) => {
    expect(problem(password)).toBe('sequence');
  });

  it.each([
    'password1234',
    'Password2026!',
    'P@ssw0rd2026',
    'Passw0rd!!!!',
    'iloveyou2026',
    'Sunshine1234',
    'motdepasse2026',
    'Azerty123456',
    'marseille2013',
    'Doudou123456',
    'qwerty123456',
    'administrator',
    'ppfile2026!!',
    '1q2w3e4r5t6y',
  ])(
    'refuses %j: a common password (case-insensitive, trailing digits and punctuation removed)',
    (password) => {
      expect(problem(password)).toBe('common');
    },
  );

  it.each([
    'correct horse battery staple',
    'a brand new passphrase 2026',
    'mot de passe été 2026',
    'Tr0ub4dor&3xyz',
    'kx7#pq2!mz9@',
    'the cat sat on the mat and ate',
    'vélo rouge sous la pluie',
    'Claire aime le thé vert',
    'sunshine over the harbour',
    'password manager generated: 9f3k!Qz',
  ])('accepts %j', (password) => {
    expect(problem(password)).toBeNull();
  });
});
