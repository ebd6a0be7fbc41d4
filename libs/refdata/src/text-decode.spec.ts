import { decodeText } from './text-decode';

describe('decodeText', () => {
  it('reads UTF-8 and drops its BOM', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('Code du Terme;Descripteur’\r\n'),
    ]);
    expect(decodeText(bytes)).toBe('Code du Terme;Descripteur’\r\n');
  });

  it('reads bytes that are not UTF-8 as Windows-1252 (Certif Info), including 0x80-0x9F', () => {
    // "Ministère de l’agriculture, œuvre – 5 €" in Windows-1252: è E8, ’ 92, œ 9C, – 96, € 80.
    const bytes = Buffer.concat([
      Buffer.from('Minist', 'latin1'),
      Buffer.from([0xe8]),
      Buffer.from('re de l', 'latin1'),
      Buffer.from([0x92]),
      Buffer.from('agriculture, ', 'latin1'),
      Buffer.from([0x9c]),
      Buffer.from('uvre ', 'latin1'),
      Buffer.from([0x96]),
      Buffer.from(' 5 ', 'latin1'),
      Buffer.from([0x80]),
    ]);
    expect(decodeText(bytes)).toBe('Ministère de l’agriculture, œuvre – 5 €');
  });

  it('maps the whole 0x80-0x9F block as WHATWG windows-1252 does', () => {
    const block = Buffer.from(Array.from({ length: 32 }, (_, i) => 0x80 + i));
    expect(decodeText(block)).toBe('€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ');
  });

  it('keeps a U+FEFF that is not at the start', () => {
    expect(decodeText(Buffer.from('a\uFEFFb'))).toBe('a\uFEFFb');
  });

  it('drops a BOM that opens a Windows-1252 body (not read as "ï»¿")', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('Code;Libell', 'latin1'),
      Buffer.from([0xe9]),
    ]);
    expect(decodeText(bytes)).toBe('Code;Libellé');
  });
});
