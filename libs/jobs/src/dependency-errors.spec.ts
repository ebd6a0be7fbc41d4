import { DependencyUnavailableError, isDependencyDown } from './dependency-errors';

/** Signatures seen while stopping, killing and restarting PostgreSQL, Redis and s3rver under load. */
describe('isDependencyDown', () => {
  const wrapped = (cause: unknown) =>
    Object.assign(new Error('Invalid `prisma.$queryRaw()` invocation'), {
      code: 'P2010',
      meta: { driverAdapterError: { cause } },
    });

  it.each([
    [
      'a refused socket',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['a raw Prisma query while the database is unreachable', wrapped({ kind: 'DatabaseNotReachable' })],
    ['a raw Prisma query during a fast stop (57P01)', wrapped({ kind: 'postgres', originalCode: '57P01' })],
    [
      'PostgreSQL starting up (57P03)',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    [
      'a Prisma model query (P1001)',
      Object.assign(new Error('Can’t reach database server'), { code: 'P1001' }),
    ],
    ['a closed adapter connection', { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } }],
    ['pg losing its socket', new Error('Connection terminated unexpectedly')],
    [
      'ioredis without offline queue',
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    ],
    [
      'ioredis retries spent',
      Object.assign(new Error('Reached the max retries per request limit'), {
        name: 'MaxRetriesPerRequestError',
      }),
    ],
    ['a lost queue job', new DependencyUnavailableError('queue', 'lost')],
    [
      'an aggregate of refused sockets',
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNRESET' })]),
    ],
  ])('%s → down', (_what, error) => {
    expect(isDependencyDown(error)).toBe(true);
  });

  it.each([
    ['a syntax error of a raw query (P2010 alone)', wrapped({ kind: 'postgres', originalCode: '42601' })],
    ['a unique violation', Object.assign(new Error('Unique constraint failed'), { code: 'P2002' })],
    [
      'a missing S3 bucket',
      Object.assign(new Error('The specified bucket does not exist'), { code: 'NoSuchBucket' }),
    ],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['not an error', 'ECONNREFUSED'],
  ])('%s → not down', (_what, error) => {
    expect(isDependencyDown(error)).toBe(false);
  });

  it('does not loop on a cyclic cause chain', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isDependencyDown(a)).toBe(false);
  });
});
