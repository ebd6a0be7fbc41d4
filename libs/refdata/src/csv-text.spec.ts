import { detectDelimiter, parseCsv } from './csv-text';

describe('detectDelimiter', () => {
  it('counts separators of the header line only, outside quotes', () => {
    expect(detectDelimiter('"code_ogr","nature","libelle; competence"\n"1";"2";"3";"4"\n')).toBe(',');
    expect(detectDelimiter('Code du Terme;Descripteur en majuscules;Descripteur, en typo riche\r\n')).toBe(
      ';',
    );
    expect(detectDelimiter('code\tlabel\n')).toBe('\t');
  });

  it('falls back to a comma for a one-column file', () => {
    expect(detectDelimiter('115650\n121885\n')).toBe(',');
  });
});

describe('parseCsv', () => {
  it('reads RFC 4180 quoting: separators, doubled quotes and line breaks inside quotes', () => {
    const text = '"code","label"\n"1","a, b"\n"2","say ""hi"""\n"3","two\nlines"\n';
    expect(parseCsv(text, ',')).toEqual([
      ['code', 'label'],
      ['1', 'a, b'],
      ['2', 'say "hi"'],
      ['3', 'two\nlines'],
    ]);
  });

  it('accepts CRLF, a missing final newline and blank lines', () => {
    expect(parseCsv('a;b\r\n\r\n"c";d\r\ne;"f"', ';')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(parseCsv('a;;b;\n;\n', ';')).toEqual([
      ['a', '', 'b', ''],
      ['', ''],
    ]);
  });

  it('treats a quote inside an unquoted field as a character (Certif Info labels)', () => {
    expect(parseCsv('116703;Magistère science pour l"ingénieur;Magistère\n1;x\n', ';')).toEqual([
      ['116703', 'Magistère science pour l"ingénieur', 'Magistère'],
      ['1', 'x'],
    ]);
  });

  it('keeps an unterminated quoted field to the end rather than dropping it', () => {
    expect(parseCsv('1;"open\n2;x', ';')).toEqual([['1', 'open\n2;x']]);
  });
});
