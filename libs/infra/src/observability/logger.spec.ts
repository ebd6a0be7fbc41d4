import { Writable } from 'node:stream';
import { CLS_ID, ClsServiceManager } from 'nestjs-cls';
import { createRootLogger } from './logger';

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
