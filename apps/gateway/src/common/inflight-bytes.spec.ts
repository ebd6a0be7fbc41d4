import { EventEmitter } from 'node:events';
import type { GatewayConfig } from '../config';
import { InflightBytes } from './inflight-bytes';
import type { GatewayRequest } from './request-context';

class FakeResponse extends EventEmitter {
  statusCode = 200;
  headers: Record<string, string> = {};
  body: unknown = null;
  headersSent = false;
  setHeader(name: string, value: string): void {
    this.headers[name.toLowerCase()] = value;
  }
  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  json(body: unknown): void {
    this.body = body;
  }
  end(): void {}
}

function post(length: number | null): GatewayRequest {
  const headers: Record<string, string> = length === null ? {} : { 'content-length': String(length) };
  return {
    method: 'POST',
    requestId: 'req_t',
    lang: 'en',
    header: (n: string) => headers[n.toLowerCase()],
    resume: () => undefined,
  } as unknown as GatewayRequest;
}

describe('InflightBytes', () => {
  const MiB = 1024 * 1024;
  const budget = new InflightBytes({ maxInflightBytes: 30 * MiB } as GatewayConfig);

  it('admits bodies within the budget, refuses the next with 503 + Retry-After, and gives bytes back when answers end', () => {
    const a = new FakeResponse();
    const b = new FakeResponse();
    const c = new FakeResponse();
    const next = jest.fn();
    budget.middleware(post(19 * MiB), a as never, next);
    budget.middleware(post(10 * MiB), b as never, next);
    expect(next).toHaveBeenCalledTimes(2);
    expect(budget.bytesHeld).toBe(29 * MiB);
    budget.middleware(post(19 * MiB), c as never, next);
    expect(next).toHaveBeenCalledTimes(2);
    expect(c.statusCode).toBe(503);
    expect(c.headers['retry-after']).toBe('2');
    expect((c.body as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
    a.emit('finish');
    a.emit('close');
    expect(budget.bytesHeld).toBe(10 * MiB);
    b.emit('close');
    expect(budget.bytesHeld).toBe(0);
  });

  it('counts a body without Content-Length as the 20 MB maximum, and always admits one body alone', () => {
    const small = new InflightBytes({ maxInflightBytes: MiB } as GatewayConfig);
    const r = new FakeResponse();
    const next = jest.fn();
    small.middleware(post(null), r as never, next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(small.bytesHeld).toBe(20 * MiB);
    r.emit('finish');
    expect(small.bytesHeld).toBe(0);
    const get = { method: 'GET', header: () => undefined } as unknown as GatewayRequest;
    small.middleware(get, new FakeResponse() as never, next);
    expect(small.bytesHeld).toBe(0);
  });
});
