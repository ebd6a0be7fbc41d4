import { randomBytes } from 'node:crypto';
import { BodyBytes, JOIN_SLICE_BYTES } from './json-body.middleware';

/** The bytes of a JSON body or an upload, joined a slice at a time (issue 32). */
describe('BodyBytes', () => {
  it('joins the chunks in order, into a buffer that is exactly the body (a rules thread takes it without a copy)', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => randomBytes(1000 + i * 997));
    const body = new BodyBytes(20 * 1024 * 1024);
    for (const chunk of chunks) expect(body.push(chunk)).toBe(true);
    const bytes = await body.bytes();
    expect(bytes.equals(Buffer.concat(chunks))).toBe(true);
    expect(body.byteLength).toBe(bytes.length);
    // RulesPool transfers a body whose view covers its whole ArrayBuffer.
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    expect(bytes.buffer).toBeInstanceOf(ArrayBuffer);
    const moved = structuredClone(bytes.buffer, { transfer: [bytes.buffer as ArrayBuffer] });
    expect(Buffer.from(moved).equals(Buffer.concat(chunks))).toBe(true);
    expect(bytes.length).toBe(0); // detached here: the thread has it
  });

  it('a large body is joined over several turns of the event loop, other callbacks running between them', async () => {
    const chunks = Array.from({ length: 80 }, () => randomBytes(64 * 1024)); // 5 MiB
    const body = new BodyBytes(20 * 1024 * 1024);
    for (const chunk of chunks) body.push(chunk);
    let turns = 0;
    let ticking = true;
    const tick = () => {
      if (!ticking) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const bytes = await body.bytes();
    ticking = false;
    expect(bytes.equals(Buffer.concat(chunks))).toBe(true);
    expect(turns).toBeGreaterThanOrEqual(Math.floor((80 * 64 * 1024) / JOIN_SLICE_BYTES) - 1);
  });

  it('refuses a chunk that would pass the limit, and keeps what it had', async () => {
    const body = new BodyBytes(10);
    expect(body.push(Buffer.from('0123456'))).toBe(true);
    expect(body.push(Buffer.from('7890'))).toBe(false);
    expect(body.push(Buffer.from('789'))).toBe(true);
    expect(body.push(Buffer.from('x'))).toBe(false);
    expect((await body.bytes()).toString()).toBe('0123456789');
  });

  it('an empty body is an empty buffer', async () => {
    expect(await new BodyBytes(1024).bytes()).toEqual(Buffer.alloc(0));
  });
});
