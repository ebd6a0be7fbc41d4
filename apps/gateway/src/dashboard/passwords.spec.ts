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
  it.each([
    ['short', 'short', 'too_short'],
    ['x'.repeat(257), 'x'.repeat(257), 'too_long'],
    ['Someone@Example.org', 'Someone@Example.org', 'same_as_email'],
    ['a long enough password', 'a long enough passwor', 'mismatch'],
    ['a long enough password', 'a long enough password', null],
  ])('%s → %s', (password, confirmation, problem) => {
    expect(newPasswordProblem(password, confirmation, 'someone@example.org')).toBe(problem);
  });

  it('counts characters, not UTF-16 units or bytes', () => {
    expect(newPasswordProblem('😀'.repeat(12), '😀'.repeat(12), 'a@b.c')).toBeNull();
    expect(newPasswordProblem('😀'.repeat(11), '😀'.repeat(11), 'a@b.c')).toBe('too_short');
  });
});
