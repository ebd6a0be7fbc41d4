import type { Request, Response } from 'express';
import { operatorAuth } from './operator-auth';
import { MemoryOperatorStore, OperatorThrottle } from './operator-throttle';

interface Answer {
  status: number | null;
  headers: Record<string, string>;
  passed: boolean;
}

function setup() {
  let now = Date.UTC(2026, 0, 1);
  const throttle = new OperatorThrottle(new MemoryOperatorStore(), () => now);
  const middleware = operatorAuth({ user: 'operator', password: 'operator-secret' }, throttle);
  const call = (authorization: string | undefined, ip = '203.0.113.7') =>
    new Promise<Answer>((resolve) => {
      const answer: Answer = { status: null, headers: {}, passed: false };
      const req = {
        ip,
        socket: {},
        header: (name: string) => (name.toLowerCase() === 'authorization' ? authorization : undefined),
      };
      const res = {
        headersSent: false,
        setHeader: (name: string, value: string) => (answer.headers[name.toLowerCase()] = value),
        status(code: number) {
          answer.status = code;
          return this;
        },
        type() {
          return this;
        },
        send() {
          resolve(answer);
          return this;
        },
      };
      middleware(req as unknown as Request, res as unknown as Response, () => {
        answer.passed = true;
        resolve(answer);
      });
    });
  return { call, advance: (ms: number) => (now += ms) };
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('operatorAuth', () => {
  it('lets the right credentials through; refuses others with 401 and a Basic challenge', async () => {
    const { call } = setup();
    await expect(call(basic('operator', 'operator-secret'))).resolves.toMatchObject({ passed: true });
    const none = await call(undefined);
    expect(none).toMatchObject({ passed: false, status: 401 });
    expect(none.headers['www-authenticate']).toMatch(/^Basic realm=/);
    await expect(call(basic('operator', 'wrong'))).resolves.toMatchObject({ passed: false, status: 401 });
    await expect(call('Bearer sk_live_x')).resolves.toMatchObject({ passed: false, status: 401 });
  });

  it('after 10 failures from an address: wrong credentials get 429 with Retry-After, the right ones still pass (issue 32)', async () => {
    const { call, advance } = setup();
    for (let i = 0; i < 10; i++)
      await expect(call(basic('operator', `guess-${i}`))).resolves.toMatchObject({ status: 401 });
    const refused = await call(basic('operator', 'guess-10'));
    expect(refused).toMatchObject({ passed: false, status: 429 });
    expect(refused.headers['retry-after']).toBe('300');
    expect(refused.headers['www-authenticate']).toBeUndefined();
    await expect(call(basic('operator', 'operator-secret'))).resolves.toMatchObject({ passed: true });
    // Without credentials: the challenge, so that a browser asks again.
    const none = await call(undefined);
    expect(none).toMatchObject({ passed: false, status: 401 });
    expect(none.headers['www-authenticate']).toMatch(/^Basic realm=/);
    // Past 30 failures, nothing is checked from that address until the window passes.
    // (Other user names, so that "operator" stays under its own limit of 20.)
    for (let i = 11; i < 30; i++) await call(basic(`user-${i}`, 'guess'));
    await expect(call(basic('operator', 'operator-secret'))).resolves.toMatchObject({
      passed: false,
      status: 429,
    });
    await expect(call(basic('operator', 'operator-secret'), '203.0.113.8')).resolves.toMatchObject({
      passed: true,
    });
    advance(5 * 60_000);
    await expect(call(basic('operator', 'operator-secret'))).resolves.toMatchObject({ passed: true });
  });

  it('after 20 failures for a user name from many addresses: that name is checked only from trusted addresses', async () => {
    const { call } = setup();
    await expect(call(basic('operator', 'operator-secret'), '192.0.2.10')).resolves.toMatchObject({
      passed: true,
    });
    for (let i = 0; i < 20; i++) await call(basic('operator', 'wrong'), `198.51.100.${i}`);
    await expect(call(basic('operator', 'operator-secret'), '198.51.100.99')).resolves.toMatchObject({
      status: 429,
    });
    // Where the right password came from before (Prometheus): still let through.
    await expect(call(basic('operator', 'operator-secret'), '192.0.2.10')).resolves.toMatchObject({
      passed: true,
    });
    // Requests without credentials from a fresh address still get the challenge.
    await expect(call(undefined, '198.51.100.98')).resolves.toMatchObject({ status: 401 });
  });

  it('without configured credentials the operator pages do not exist (404), and nothing is counted', async () => {
    const middleware = operatorAuth(null);
    const status = await new Promise<number>((resolve) => {
      const res = {
        status: (code: number) => (resolve(code), res),
        type: () => res,
        send: () => res,
      };
      middleware({ header: () => undefined } as unknown as Request, res as unknown as Response, () =>
        resolve(0),
      );
    });
    expect(status).toBe(404);
  });
});
