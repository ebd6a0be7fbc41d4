import { Writable } from 'node:stream';
import { CLS_ID, ClsServiceManager } from 'nestjs-cls';
import { createRootLogger, InfoLineBatcher } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createRootLogger({ app: 'gateway', level: 'info', destination }) };
}

describe('the root logger', () => {
  it('puts the request id of the work under way on every line, and none outside it', async () => {
    const { lines, logger } = capture();
    const cls = ClsServiceManager.getClsService();
    logger.info('before');
    await cls.run(async () => {
      cls.set(CLS_ID, 'req_abc');
      logger.info('inside');
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.warn({ file_id: 'file_1' }, 'inside, later');
    });
    logger.info('after');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => [l.msg, l.request_id])).toEqual([
      ['before', undefined],
      ['inside', 'req_abc'],
      ['inside, later', 'req_abc'],
      ['after', undefined],
    ]);
  });
});

describe("InfoLineBatcher (the gateway's standard output)", () => {
  function batched(maxDelayMs = 50, maxBytes = 1024) {
    const writes: string[] = [];
    const batcher = new InfoLineBatcher({ write: (text: string) => writes.push(text) }, maxDelayMs, maxBytes);
    const logger = createRootLogger({ app: 'gateway', level: 'debug', destination: batcher });
    return { writes, logger };
  }
  const messages = (writes: string[]) =>
    writes.map((w) =>
      w
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { msg: string }).msg),
    );

  it('writes info lines together after at most maxDelayMs, in one write', async () => {
    const { writes, logger } = batched();
    logger.info('a');
    logger.debug('b');
    logger.info({ type: 'access' }, 'c');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(messages(writes)).toEqual([['a', 'b', 'c']]);
  });

  it('a warning or an error is written at once, after the lines kept before it (order kept)', () => {
    const { writes, logger } = batched();
    logger.info('a');
    logger.warn('w');
    logger.info('b');
    logger.error('e');
    logger.fatal('f');
    expect(messages(writes)).toEqual([['a'], ['w'], ['b'], ['e'], ['f']]);
  });

  it("writes what it keeps once maxBytes are kept, and on pino's flush (the end of Nest's shutdown)", () => {
    const { writes, logger } = batched(10_000, 300);
    for (let i = 0; i < 5; i++) logger.info(`line ${i}`);
    expect(writes.length).toBe(1);
    logger.flush();
    expect(messages(writes).flat()).toEqual(['line 0', 'line 1', 'line 2', 'line 3', 'line 4']);
  });
});
