import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { isCommonPassword, withoutSuffix } from './common-passwords';

/**
 * Dashboard passwords, hashed with scrypt from Node's crypto (memory-hard; no dependency). Each
 * hash carries its own random salt and the parameters it was made with:
 *
 *     scrypt$<N>$<r>$<p>$<salt, base64>$<key, base64>
 *
 * so that the parameters can be raised later without breaking stored hashes (`needsRehash` tells
 * when a successful sign-in should store a new one). Comparison is constant-time. Parameters read
 * from the database are bounded before use: a tampered row cannot make the gateway allocate
 * gigabytes.
 *
 * N = 2^15, r = 8, p = 3: one of OWASP's equivalent minimums for scrypt (N = 2^17, r = 8, p = 1 at
 * 128 MiB is another). It trades memory for time: 32 MiB per hash, so four concurrent sign-ins stay
 * within the libuv pool at 128 MiB on a small gateway, and about 150–300 ms of one core per hash,
 * with sign-in failures throttled. Hashes made with p = 1 are rehashed at their next sign-in.
 */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

export const SCRYPT_PARAMS: Readonly<ScryptParams> = { N: 2 ** 15, r: 8, p: 3 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Bounds of what verifyPassword accepts from a stored hash. */
const MAX_N = 2 ** 20;
const MAX_MEMORY = 256 * 1024 * 1024;

/** Length bounds of a new password (characters after normalization). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * The same password typed on two keyboards can be two different code-point sequences (é as one code
 * point or as e + combining accent): compared after NFKC, as NIST SP 800-63B recommends.
 */
function normalize(password: string): string {
  return password.normalize('NFKC');
}

function derive(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // scrypt's memory is 128·N·r whatever p (the p lanes run one after the other); room to spare.
    maxmem: 2 * 128 * params.N * params.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scrypt(normalize(password), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string, params: ScryptParams = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params, KEY_BYTES);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

const HASH = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/** A stored hash's parts, or null when it is not one this code made (or its parameters are out of bounds). */
export function parseHash(stored: string): ParsedHash | null {
  const m = HASH.exec(stored);
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const powerOfTwo = N >= 2 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || r < 1 || r > 32 || p < 1 || p > 16 || 128 * N * r > MAX_MEMORY) return null;
  const salt = Buffer.from(m[4]!, 'base64');
  const key = Buffer.from(m[5]!, 'base64');
  if (salt.length < 8 || salt.length > 64 || key.length < 16 || key.length > 64) return null;
  return { params: { N, r, p }, salt, key };
}

let dummy: Promise<string> | null = null;

/**
 * Whether `password` matches `stored`. With no stored hash (unknown e-mail, invitation not yet
 * accepted) or a malformed one, a hash is still computed, against a fixed dummy: the answer takes
 * as long either way, so timing does not tell which addresses have an account.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored === null ? null : parseHash(stored);
  if (!parsed) {
    dummy ??= hashPassword(randomBytes(16).toString('hex'));
    const fallback = parseHash(await dummy)!;
    await derive(password, fallback.salt, fallback.params, fallback.key.length);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash was made with weaker parameters than today's (rehash it at the next sign-in). */
export function needsRehash(stored: string, params: ScryptParams = SCRYPT_PARAMS): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  return (
    parsed.params.N < params.N ||
    parsed.params.r < params.r ||
    parsed.params.p < params.p ||
    parsed.key.length < KEY_BYTES
  );
}

export type PasswordProblem =
  'too_short' | 'too_long' | 'blank' | 'contains_email' | 'repeated' | 'sequence' | 'common' | 'mismatch';

/**
 * What is wrong with a new password (and its confirmation), or null: the one rule of the
 * invitation page and the password form (the CLI never sets a password). After NIST SP 800-63B
 * §3.1.1.2 (2024): a minimum length, no composition rules, and a refusal of what attackers try
 * first — blank, repetitive or sequential ones, the account's own name, and commonly breached
 * passwords (common-passwords.ts), compared case-insensitively and also without their trailing
 * digits and punctuation (`Password2026!` is `password`).
 */
export function newPasswordProblem(
  password: string,
  confirmation: string,
  email: string,
): PasswordProblem | null {
  const normalized = normalize(password);
  const length = [...normalized].length;
  if (length > PASSWORD_MAX_LENGTH) return 'too_long';
  if (length > 0 && normalized.trim() === '') return 'blank';
  if (length < PASSWORD_MIN_LENGTH) return 'too_short';
  const lower = normalized.toLowerCase();
  if (containsEmail(lower, email)) return 'contains_email';
  if (isCommonPassword(lower)) return 'common';
  const pattern = patternOf(lower);
  if (pattern) return pattern;
  if (password !== confirmation) return 'mismatch';
  return null;
}

/** The address itself, or its local part (3 characters or more), with or without its dots and dashes. */
function containsEmail(lower: string, email: string): boolean {
  const local = email.trim().toLowerCase().split('@', 1)[0]!;
  if (local.length < 3) return false;
  const compact = local.replace(/[._+-]/g, '');
  return lower.includes(local) || (compact.length >= 3 && lower.includes(compact));
}

/** Keyboard rows (QWERTY, AZERTY) and QWERTY's columns (1qaz2wsx): a step along one is a sequence. */
const KEYBOARD_ROWS = [
  '1234567890',
  'qwertyuiopasdfghjklzxcvbnm',
  'azertyuiopqsdfghjklmwxcvbn',
  'qazwsxedcrfvtgbyhnujmikolp',
];

function isStep(a: string, b: string): boolean {
  const [x, y] = [a.codePointAt(0)!, b.codePointAt(0)!];
  const digits = /\d/.test(a) && /\d/.test(b);
  // 1234567890: after 9 comes 0, and back.
  if (digits && (((x - 48 + 1) % 10) + 48 === y || ((y - 48 + 1) % 10) + 48 === x)) return true;
  if (/[a-z]/.test(a) && /[a-z]/.test(b) && Math.abs(x - y) === 1) return true;
  return KEYBOARD_ROWS.some((row) => {
    const i = row.indexOf(a);
    return i >= 0 && (row[i + 1] === b || row[i - 1] === b);
  });
}

/**
 * 'repeated' or 'sequence' when the password — or what precedes its trailing digits and
 * punctuation, 8 characters or more — is one block repeated (`passwordpassword`) or is predictable
 * from a few of its characters.
 */
function patternOf(lower: string): 'repeated' | 'sequence' | null {
  const core = withoutSuffix(lower);
  for (const text of core.length >= 8 && core !== lower ? [lower, core] : [lower]) {
    if (isRepeatedBlock(text)) return 'repeated';
    const found = predictable(text);
    if (found) return found;
  }
  return null;
}

/**
 * Each character after the first is "explained" when it repeats one of the 4 before it (aaaa,
 * abcabc, 1212) or steps from the one before along the alphabet, the digits or a keyboard row
 * (abcd, 4321, qwerty, azerty). Two unexplained characters or fewer (a fifth of the length for
 * longer ones) make a pattern, not a password; the explanation that dominates names it. (Random
 * passwords of 12 characters pass; 1 in 50,000 of 12 random lower-case letters does not.)
 */
function predictable(text: string): 'repeated' | 'sequence' | null {
  const chars = [...text];
  let free = 1;
  let repeats = 0;
  let steps = 0;
  for (let i = 1; i < chars.length; i++) {
    const c = chars[i]!;
    if (chars.slice(Math.max(0, i - 4), i).includes(c)) repeats++;
    else if (isStep(chars[i - 1]!, c)) steps++;
    else free++;
  }
  if (free > Math.max(2, Math.floor(chars.length / 5))) return null;
  return repeats >= steps ? 'repeated' : 'sequence';
}

/** Whether the text is one block written twice or more (`abcabc`), by code points. */
function isRepeatedBlock(text: string): boolean {
  const chars = [...text];
  const n = chars.length;
  for (let size = 1; size <= n / 2; size++) {
    if (n % size !== 0) continue;
    let same = true;
    for (let i = size; i < n && same; i++) same = chars[i] === chars[i - size];
    if (same) return true;
  }
  return false;
}
