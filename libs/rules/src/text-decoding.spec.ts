import { decodeText, decodeWindows1252 } from './text-decoding';

describe('decodeText (API.md §14: UTF-8, UTF-8 with BOM, Windows-1252)', () => {
  it('reads UTF-8, and UTF-8 after a BOM, which it removes', () => {
    expect(decodeText(Buffer.from('Cœur’s €', 'utf8'))).toEqual({ text: 'Cœur’s €', encoding: 'utf-8' });
    expect(decodeText(Buffer.from('\ufeffÉté', 'utf8'))).toEqual({ text: 'Été', encoding: 'utf-8-bom' });
  });

  it('reads anything else as Windows-1252, the 0x80–0x9F block included (not as C1 controls)', () => {
    const bytes = Buffer.from([0x43, 0x9c, 0x75, 0x72, 0x92, 0x73, 0x20, 0x80, 0x20, 0xc9, 0x74, 0xe9, 0x8a]);
    expect(decodeText(bytes)).toEqual({ text: 'Cœur’s € ÉtéŠ', encoding: 'windows-1252' });
    // The five bytes WHATWG leaves unassigned keep their C1 code point (refused later as control characters).
    expect(decodeWindows1252(Buffer.from([0x81, 0x8d, 0x8f, 0x90, 0x9d]))).toBe(
      '\u0081\u008d\u008f\u0090\u009d',
    );
  });

  it('reads the body without its BOM when the body after it is not UTF-8 (Windows-1252)', () => {
    // "ID_DECLARATION;Nom;Prénom" in Windows-1252 (é E9), opened by a UTF-8 BOM.
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('ID_DECLARATION;Nom;Pr', 'latin1'),
      Buffer.from([0xe9]),
      Buffer.from('nom', 'latin1'),
    ]);
    expect(decodeText(bytes)).toEqual({ text: 'ID_DECLARATION;Nom;Prénom', encoding: 'windows-1252' });
  });
});
