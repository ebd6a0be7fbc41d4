import request from 'supertest';
import { startGateway, type Gateway } from './support/gateway';

/**
 * The operators' sign-in throttle (apps/gateway/src/operators/operator-throttle.ts) on a real
 * gateway, its counters in Redis: guessing stays bounded, and the right credentials keep working
 * when someone mistypes (issue 32: Prometheus got 429 on /metrics from an address that had failed).
 * Addresses come through the trusted loopback proxy (X-Forwarded-For).
 */
const OPERATOR = ['operator', 'operator-secret'] as const;
const WINDOW_MS = 5 * 60_000;
/** Past every window and every address's trust (7 days): each test starts afresh. */
const FRESH_MS = 8 * 24 * 3_600_000;

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ trustProxy: ['loopback'] });
}, 60_000);
afterAll(async () => {
  await gw?.close();
});
afterEach(() => gw.clock.advance(FRESH_MS));

const from = (address: string) => ({
  get: (path: string) => request(gw.http).get(path).set('X-Forwarded-For', address),
});

/** The security headers every answer carries, a 429 included. */
function expectCommonHeaders(res: request.Response): void {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-powered-by']).toBeUndefined();
}

describe('operator sign-in throttle', () => {
  it('11 wrong passwords from an address: wrong ones then get 429, the right one still 200 on /metrics and Bull Board', async () => {
    const client = from('203.0.113.1');
    for (let i = 0; i < 10; i++) {
      const res = await client.get('/admin/queues').auth('operator', `guess-${i}`);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    }
    const eleventh = await client.get('/metrics').auth('operator', 'guess-10');
    expect(eleventh.status).toBe(429);
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(290);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(eleventh.headers['www-authenticate']).toBeUndefined();
    expectCommonHeaders(eleventh);

    // Prometheus, from the same address, keeps scraping; an operator keeps reading the queues.
    const metrics = await client.get('/metrics').auth(...OPERATOR);
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('ppfile_');
    expect((await client.get('/admin/queues').auth(...OPERATOR)).status).toBe(200);
    expect((await client.get('/admin/queues/api/queues').auth(...OPERATOR)).status).toBe(200);
    // Wrong ones are still 429, on both; without credentials, the challenge (a browser asks again).
    expect((await client.get('/metrics').auth('operator', 'guess-11')).status).toBe(429);
    expect((await client.get('/admin/queues').auth('operator', 'guess-12')).status).toBe(429);
    const none = await client.get('/admin/queues');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Basic realm=/);
    // Counted in Redis under the queue prefix, shared by the replicas.
    const keys = await gw.redis.keys(`${gw.config.queue.prefix}:{opauth}:*`);
    expect(keys.length).toBeGreaterThanOrEqual(3);
  });

  it('30 failures from an address: nothing from it is checked until its window ends; other addresses are fine', async () => {
    const client = from('203.0.113.2');
    // Several user names, so that only the address's counter passes its limits.
    for (let i = 0; i < 30; i++)
      expect([401, 429]).toContain((await client.get('/metrics').auth(`user-${i % 3}`, `guess-${i}`)).status);
    const right = await client.get('/metrics').auth(...OPERATOR);
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await client.get('/admin/queues')).status).toBe(429);
    expect(
      (
        await from('203.0.113.3')
          .get('/metrics')
          .auth(...OPERATOR)
      ).status,
    ).toBe(200);
    gw.clock.advance(WINDOW_MS);
    expect((await client.get('/metrics').auth(...OPERATOR)).status).toBe(200);
  });

  it('20 wrong passwords for the user name from other addresses: Prometheus (trusted) keeps scraping, a new address waits', async () => {
    const prometheus = from('192.0.2.10');
    expect((await prometheus.get('/metrics').auth(...OPERATOR)).status).toBe(200);
    for (const address of ['203.0.113.4', '203.0.113.5'])
      for (let i = 0; i < 10; i++)
        expect((await from(address).get('/admin/queues').auth('operator', `nope-${i}`)).status).toBe(401);

    expect((await prometheus.get('/metrics').auth(...OPERATOR)).status).toBe(200);
    expect((await prometheus.get('/metrics').auth('operator', 'typo')).status).toBe(429);
    const stranger = await from('203.0.113.6')
      .get('/admin/queues')
      .auth(...OPERATOR);
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);
    // Another name from that address is only wrong; once the window has passed, the name is usable again.
    expect((await from('203.0.113.6').get('/admin/queues').auth('someone', 'x')).status).toBe(401);
    gw.clock.advance(WINDOW_MS);
    expect(
      (
        await from('203.0.113.6')
          .get('/admin/queues')
          .auth(...OPERATOR)
      ).status,
    ).toBe(200);
  });
});
