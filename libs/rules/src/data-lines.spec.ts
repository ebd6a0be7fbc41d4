import { countDataLines } from './data-lines';

describe('countDataLines', () => {
  it('counts the lines after the header, with or without a final line break', () => {
    const lines = (text: string) => countDataLines(Buffer.from(text));
    expect([lines(''), lines('h'), lines('h\n'), lines('h\r\na\r\nb'), lines('h\na\nb\n')]).toEqual([
      0, 0, 0, 2, 2,
    ]);
  });
});
