import { randomBytes } from 'node:crypto';
import { PayloadCipher } from './payload-cipher';
import { openAnswer, openUnder, sealAnswer, sealedUploadKeys, sealUnder } from './sealed-uploads';

describe('sealed uploads (issue 32, finding 5)', () => {
  const cipher = new PayloadCipher(randomBytes(32));
  const csv = Buffer.from('NIR|NOM\r\n2550814168025|ZYLBERSZTEJN\r\n');
  const a = sealedUploadKeys('bull', 'a'.repeat(32));
  const b = sealedUploadKeys('bull', 'b'.repeat(32));

  it('names the job and its two keys under the queue prefix', () => {
    expect(a).toEqual({
      jobId: `validate-${'a'.repeat(32)}`,
      payloadKey: `bull:payload:validate:${'a'.repeat(32)}`,
      answerKey: `bull:answer:validate:${'a'.repeat(32)}`,
    });
  });

  it('seals an upload that opens only under its own key, and holds nothing in clear', () => {
    const stored = sealUnder(cipher, a.payloadKey, csv);
    expect(stored.includes(Buffer.from('2550814168025'))).toBe(false);
    expect(stored.includes(Buffer.from('ZYLBERSZTEJN'))).toBe(false);
    expect(openUnder(cipher, a.payloadKey, stored).equals(csv)).toBe(true);
    // Another job's upload, or this upload offered as an answer, does not open.
    expect(() => openUnder(cipher, b.payloadKey, stored)).toThrow();
    expect(() => openUnder(cipher, a.answerKey, stored)).toThrow();
    expect(() => openUnder(new PayloadCipher(randomBytes(32)), a.payloadKey, stored)).toThrow();
    expect(() => openUnder(cipher, a.payloadKey, stored.subarray(0, 20))).toThrow(/truncated/);
  });

  it('seals a view of a larger buffer as its own bytes only', () => {
    const larger = Buffer.concat([Buffer.from('xx'), csv, Buffer.from('yy')]);
    const stored = sealUnder(cipher, a.payloadKey, larger.subarray(2, 2 + csv.length));
    expect(openUnder(cipher, a.payloadKey, stored).equals(csv)).toBe(true);
  });

  it('seals an answer as JSON', () => {
    const answer = { ok: true, response: { body: { holders: [{ nir: '2550814168025' }] } } };
    const stored = sealAnswer(cipher, a.answerKey, answer);
    expect(stored.includes(Buffer.from('2550814168025'))).toBe(false);
    expect(openAnswer(cipher, a.answerKey, stored)).toEqual(answer);
    expect(() => openAnswer(cipher, b.answerKey, stored)).toThrow();
  });
});
