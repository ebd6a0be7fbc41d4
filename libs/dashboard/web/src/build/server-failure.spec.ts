import { describe, expect, it } from '@jest/globals';
import { ServerError, failureOf } from './server';

describe('failureOf (what the Generate panel says of a refusal)', () => {
  it('keeps the status, code and message, and for a rate limit when Generate may be pressed again', () => {
    const limited = new ServerError(429, 'RATE_LIMIT_EXCEEDED', 'Slow down', undefined, 17);
    expect(failureOf(limited, 1000)).toEqual({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'Slow down',
      retryAt: 18_000,
    });
    // The quota used up is no wait: it stays refused until renewed.
    expect(failureOf(new ServerError(429, 'QUOTA_EXCEEDED', 'Quota'), 1000)).not.toHaveProperty('retryAt');
  });

  it('says a lost connection as status 0', () => {
    expect(failureOf(new TypeError('Failed to fetch'))).toEqual({
      status: 0,
      code: 'NETWORK',
      message: 'Failed to fetch',
    });
  });
});
