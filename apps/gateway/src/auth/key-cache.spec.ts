import type { AuthenticatedKey } from '@ppfile/db';
import { KeyCache } from './key-cache';

const principal: AuthenticatedKey = {
  keyId: 'key_1',
  mode: 'live',
  organization: { id: 'org_1', name: 'o', plan: 'pro' },
};

describe('KeyCache', () => {
  it('looks a key up once within the TTL, again after it', async () => {
    let now = 0;
    let lookups = 0;
    const cache = new KeyCache(5000, () => now);
    const lookup = () => Promise.resolve((lookups++, principal));
    await cache.authenticate('pp_live_x', lookup);
    await cache.authenticate('pp_live_x', lookup);
    expect(lookups).toBe(1);
    now = 5001;
    await cache.authenticate('pp_live_x', lookup);
    expect(lookups).toBe(2);
  });

  it('never remembers a failure, and forgets a key that stopped authenticating', async () => {
    let now = 0;
    let valid = true;
    let lookups = 0;
    const cache = new KeyCache(1000, () => now);
    const lookup = () => Promise.resolve((lookups++, valid ? principal : null));
    expect(await cache.authenticate('k', lookup)).toBe(principal);
    valid = false;
    now = 1001;
    expect(await cache.authenticate('k', lookup)).toBeNull();
    expect(await cache.authenticate('k', lookup)).toBeNull();
    expect(lookups).toBe(3);
  });

  it('keeps at most maxEntries keys, forgetting the least recently used first', async () => {
    const seen: string[] = [];
    const cache = new KeyCache(60_000, () => 1, 2);
    const lookup = (token: string) => Promise.resolve((seen.push(token), principal));
    for (const token of ['a', 'b', 'a', 'c', 'a', 'b']) await cache.authenticate(token, lookup);
    // c pushed b out (a was used after b), so b is looked up again; a never is.
    expect(seen).toEqual(['a', 'b', 'c', 'b']);
  });

  it('with a TTL of 0 looks up every time', async () => {
    let lookups = 0;
    const cache = new KeyCache(0, () => 0);
    for (let i = 0; i < 3; i++) await cache.authenticate('k', () => Promise.resolve((lookups++, principal)));
    expect(lookups).toBe(3);
  });
});
