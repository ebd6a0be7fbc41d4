import { randomBytes } from 'node:crypto';
import { PayloadCipher } from './payload-cipher';
import {
  openAnswer,
  openUpload,
  sealAnswer,
  sealedUploadKeys,
  sealUpload,
  sealUploadInTurns,
} from './sealed-uploads';

describe('sealed uploads (issue 32, finding 5)', () => {
  const cipher = new PayloadCipher(randomBytes(32));
  const csv = Buffer.from('NIR|NOM\r\n2550814168025|ZYLBERSZTEJN\r\n');
  const form = { kind: 'import', form: { filename: 'Session DUPONT.csv', sheet: 'MARTIN' }, lang: 'fr' };
  const a = sealedUploadKeys('bull', 'a'.repeat(32));
  const b = sealedUploadKeys('bull', 'b'.repeat(32));
  const clear = (stored: Buffer) =>
    ['2550814168025', 'ZYLBERSZTEJN', 'DUPONT', 'MARTIN'].filter((s) => stored.includes(Buffer.from(s)));

  it('names the job and its two keys under the queue prefix', () => {
    expect(a).toEqual({
      jobId: `validate-${'a'.repeat(32)}`,
      payloadKey: `bull:payload:validate:{${'a'.repeat(32)}}`,
      answerKey: `bull:answer:validate:{${'a'.repeat(32)}}`,
    });
  });

  it('seals the form with the file; they open only under their own key, and nothing is in clear', () => {
    const stored = sealUpload(cipher, a.payloadKey, form, csv);
    expect(clear(stored)).toEqual([]);
    const opened = openUpload(cipher, a.payloadKey, stored);
    expect(opened.input).toEqual(form);
    expect(opened.file.equals(csv)).toBe(true);
    // Another job's upload, or this upload offered as an answer, does not open.
    expect(() => openUpload(cipher, b.payloadKey, stored)).toThrow();
    expect(() => openUpload(cipher, a.answerKey, stored)).toThrow();
    expect(() => openUpload(new PayloadCipher(randomBytes(32)), a.payloadKey, stored)).toThrow();
    expect(() => openUpload(cipher, a.payloadKey, stored.subarray(0, 20))).toThrow(/truncated/);
  });

  it("the gateway's sealing gives the event loop a turn after each MiB, and opens as the same upload", async () => {
    const big = Buffer.concat([randomBytes(5 << 20), csv]);
    let turns = 0;
    let counting = true;
    const count = (): void => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const stored = await sealUploadInTurns(cipher, a.payloadKey, form, big);
    counting = false;
    // Six slices of 1 MiB (5 MiB and the rest): other callbacks ran between them.
    expect(turns).toBeGreaterThanOrEqual(5);
    const opened = openUpload(cipher, a.payloadKey, stored);
    expect(opened.input).toEqual(form);
    expect(opened.file.equals(big)).toBe(true);
    expect(() => openUpload(cipher, b.payloadKey, stored)).toThrow();
  });

  it('seals a view of a larger buffer as its own bytes only, and an empty file', () => {
    const larger = Buffer.concat([Buffer.from('xx'), csv, Buffer.from('yy')]);
    const view = larger.subarray(2, 2 + csv.length);
    expect(
      openUpload(cipher, a.payloadKey, sealUpload(cipher, a.payloadKey, form, view)).file.equals(csv),
    ).toBe(true);
    expect(
      openUpload(cipher, a.payloadKey, sealUpload(cipher, a.payloadKey, {}, Buffer.alloc(0))).file,
    ).toEqual(Buffer.alloc(0));
  });

  it('seals an answer as JSON', () => {
    const answer = {
      ok: true,
      response: { body: { holders: [{ nir: '2550814168025', birth_name: 'DUPONT' }] } },
    };
    const stored = sealAnswer(cipher, a.answerKey, answer);
    expect(clear(stored)).toEqual([]);
    expect(openAnswer(cipher, a.answerKey, stored)).toEqual(answer);
    expect(() => openAnswer(cipher, b.answerKey, stored)).toThrow();
  });
});
