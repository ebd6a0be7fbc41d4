import { describe, expect, it } from '@jest/globals';
import type { DeclarationBody } from '../engine/protocol';
import { canonicalJson, generateKey, hash128 } from './idempotency';

const body = (nir = '2550814168025'): DeclarationBody => ({
  type: 'adf',
  declarant: 'employer',
  spec_version: '2026-02',
  declarations: [{ id: 'D1', holders: [{ nir, last_name: 'Martin' }] }],
});

describe('generateKey (the Idempotency-Key of Generate, per content)', () => {
  it('gives the same key for the same content, even built again as another object', () => {
    expect(generateKey(body(), true)).toBe(generateKey(body(), true));
    expect(generateKey(body(), true)).toMatch(/^build-[0-9a-f]{32}$/);
  });

  it('does not depend on the order the keys were set in', () => {
    const reordered = {
      declarations: [{ holders: [{ last_name: 'Martin', nir: '2550814168025' }], id: 'D1' }],
      spec_version: '2026-02',
      declarant: 'employer',
      type: 'adf',
    } as DeclarationBody;
    expect(generateKey(reordered, true)).toBe(generateKey(body(), true));
  });

  it('gives another key when one value changes, or when strict references are off', () => {
    expect(generateKey(body('2550814168026'), true)).not.toBe(generateKey(body(), true));
    expect(generateKey(body(), false)).not.toBe(generateKey(body(), true));
  });

  it('stays within what the server takes (1 to 255 printable ASCII characters)', () => {
    expect(generateKey(body(), true)).toMatch(/^[\x21-\x7e]{1,255}$/);
  });
});

describe('canonicalJson and hash128', () => {
  it('writes sorted keys, drops undefined members and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: [2, 1], c: undefined, d: null })).toBe('{"a":[2,1],"b":1,"d":null}');
  });

  it('hashes to 32 hex digits, differently for texts one character apart', () => {
    expect(hash128('')).toMatch(/^[0-9a-f]{32}$/);
    expect(hash128('abc')).not.toBe(hash128('abd'));
    expect(hash128('abc')).toBe(hash128('abc'));
  });
});
