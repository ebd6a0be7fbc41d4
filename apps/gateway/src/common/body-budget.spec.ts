import { EventEmitter } from 'node:events';
import { Metrics } from '@ppfile/infra';
import type { GatewayConfig } from '../config';
import { BodyBudget, bytesToHold } from './body-budget';
import type { GatewayRequest } from './request-context';

const MiB = 1024 * 1024;

class FakeResponse extends EventEmitter {
  statusCode = 200;
  headers: Record<string, string> = {};
  body: unknown = null;
  headersSent = false;
  closed = false;
  writable = true;
  setHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }
  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  json(body: unknown): void {
    this.body = body;
    this.headersSent = true;
  }
  end(): void {}
}

interface FakeRequest {
  method: string;
  requestId: string;
  lang: 'en';
  destroyed: boolean;
  complete: boolean;
  socket: { destroyed: boolean; bytesRead: number; destroy(): void };
  principal: { organization: { id: string } };
  header(n: string): string | undefined;
  resume(): void;
  once(event: string, f: () => void): void;
}

function post(length: number | null, org = 'org_a', headers: Record<string, string> = {}): FakeRequest {
  const all: Record<string, string> =
    length === null ? { ...headers } : { 'content-length': String(length), ...headers };
  const socket = {
    destroyed: false,
    bytesRead: 0,
    destroy() {
      this.destroyed = true;
    },
  };
  return {
    method: 'POST',
    requestId: 'req_t',
    lang: 'en',
    destroyed: false,
    complete: false,
    socket,
    principal: { organization: { id: org } },
    header: (n: string) => all[n.toLowerCase()],
    resume: () => undefined,
    once: () => undefined,
  };
}

const metrics = () => new Metrics({ defaultMetrics: false });

function budgetOf(
  maxInflightBytes: number,
  body = { timeoutSeconds: 120, minBytesPerSecond: 1024, graceSeconds: 10 },
) {
  const config = { maxInflightBytes, body, queue: { waitSeconds: 120 } } as GatewayConfig;
  const m = metrics();
  const b = new BodyBudget(config, m);
  b.onModuleDestroy(); // the tests sweep by hand
  return { budget: b, metrics: m };
}

const use = (b: BodyBudget, req: FakeRequest, res: FakeResponse, next = jest.fn()) => {
  b.middleware(req as unknown as GatewayRequest, res as never, next);
  return next;
};

describe('BodyBudget', () => {
  it('admits bodies within the budget, refuses the next with 503 + Retry-After, and gives bytes back once when answers end', async () => {
    const { budget, metrics: m } = budgetOf(128 * MiB);
    const a = new FakeResponse();
    const b = new FakeResponse();
    use(budget, post(19 * MiB, 'org_a'), a);
    use(budget, post(19 * MiB, 'org_b'), b);
    expect(budget.bytesHeld).toBe(38 * MiB);
    a.emit('finish');
    a.emit('close');
    expect(budget.bytesHeld).toBe(19 * MiB);
    expect(await m.registry.getSingleMetricAsString('ppfile_inflight_body_bytes')).toContain(
      `ppfile_inflight_body_bytes ${19 * MiB}`,
    );
    b.emit('close');
    b.emit('finish');
    expect(budget.bytesHeld).toBe(0);
  });

  it('does not count a request whose connection closed during the key check (issue 19: the budget leaked for good)', () => {
    const { budget } = budgetOf(30 * MiB);
    const req = post(20 * MiB);
    req.destroyed = true;
    req.socket.destroyed = true;
    const res = new FakeResponse();
    res.closed = true;
    const next = use(budget, req, res);
    expect(next).not.toHaveBeenCalled();
    expect(budget.bytesHeld).toBe(0);
    expect(res.body).toBeNull();
  });

  it('releases on its sweep a body whose connection is gone though no event said so', () => {
    const { budget } = budgetOf(30 * MiB);
    const req = post(20 * MiB);
    use(budget, req, new FakeResponse());
    expect(budget.bytesHeld).toBe(20 * MiB);
    req.socket.destroyed = true;
    budget.sweep(Date.now());
    expect(budget.bytesHeld).toBe(0);
  });

  it('holds the 20 MB maximum for a body without Content-Length or a compressed one, and always admits one body alone', () => {
    expect(bytesToHold(post(null) as unknown as GatewayRequest)).toBe(20 * MiB);
    expect(bytesToHold(post(19_846, 'o', { 'content-encoding': 'gzip' }) as unknown as GatewayRequest)).toBe(
      20 * MiB,
    );
    expect(bytesToHold(post(500, 'o', { 'content-encoding': 'identity' }) as unknown as GatewayRequest)).toBe(
      500,
    );
    const { budget } = budgetOf(MiB);
    const next = use(budget, post(null), new FakeResponse());
    expect(next).toHaveBeenCalledTimes(1);
    const get = { ...post(null), method: 'GET' };
    use(budget, get, new FakeResponse());
    expect(budget.bytesHeld).toBe(20 * MiB);
  });

  it('gives one organization at most half of the budget; another organization still gets in', () => {
    const { budget } = budgetOf(128 * MiB);
    const refused: FakeResponse[] = [];
    for (let i = 0; i < 7; i++) {
      const res = new FakeResponse();
      const next = use(budget, post(i < 6 ? 20 * MiB : 8 * MiB, 'org_free'), res);
      if (!next.mock.calls.length) refused.push(res);
    }
    expect(budget.bytesHeld).toBeLessThanOrEqual(64 * MiB);
    expect(refused.length).toBe(4); // 3 × 20 MiB held; a 4th 20 MiB and the 8 MiB would pass 64 MiB
    expect(refused.every((r) => r.statusCode === 503)).toBe(true);
    expect(use(budget, post(20 * MiB, 'org_other'), new FakeResponse())).toHaveBeenCalled();
  });

  it('answers 408 REQUEST_TIMEOUT to a body slower than the minimum rate after the grace, or past the deadline, and releases it', () => {
    const { budget } = budgetOf(128 * MiB, { timeoutSeconds: 60, minBytesPerSecond: 1000, graceSeconds: 5 });
    const slow = post(10 * MiB);
    const fast = post(10 * MiB, 'org_b');
    const slowRes = new FakeResponse();
    const fastRes = new FakeResponse();
    const t0 = Date.now();
    use(budget, slow, slowRes);
    use(budget, fast, fastRes);
    // 10 s in: 5,000 bytes owed; the fast one sent 100 KB, the slow one 10 bytes.
    fast.socket.bytesRead = 100_000;
    slow.socket.bytesRead = 10;
    budget.sweep(t0 + 10_000);
    expect(slowRes.statusCode).toBe(408);
    expect((slowRes.body as { error: { code: string } }).error.code).toBe('REQUEST_TIMEOUT');
    expect(slowRes.headers.connection).toBe('close');
    expect(fastRes.body).toBeNull();
    expect(budget.bytesHeld).toBe(10 * MiB);
    // Past the deadline, whatever its rate.
    fast.socket.bytesRead = 10_000_000;
    budget.sweep(t0 + 61_000);
    expect(fastRes.statusCode).toBe(408);
    expect(budget.bytesHeld).toBe(0);
    // A body read in full is not timed (its answer may take longer: a worker's validation).
    const done = post(MiB);
    done.complete = true;
    const doneRes = new FakeResponse();
    use(budget, done, doneRes);
    budget.sweep(t0 + 500_000);
    expect(doneRes.body).toBeNull();
  });

  it('is stuck (readiness) only when a body is held past any answer’s time', () => {
    const { budget } = budgetOf(128 * MiB);
    use(budget, post(MiB), new FakeResponse());
    expect(budget.isStuck()).toBe(false);
    expect(budget.isStuck(Date.now() + (120 + 120 + 61) * 1000)).toBe(true);
  });
});
