import { template } from './template';
import { writeWorkbook } from './xlsx-writer';

jest.mock('./xlsx-writer', () => {
  const actual = jest.requireActual<typeof import('./xlsx-writer')>('./xlsx-writer');
  return { ...actual, writeWorkbook: jest.fn(actual.writeWorkbook) };
});

describe('template: built once per spec version and kind', () => {
  it('answers the same bytes without building the workbook again, each call its own copy', () => {
    const built = jest.mocked(writeWorkbook);
    const first = template('jdr', 'employer', '2026-02', 'en');
    const again = template('jdr', 'employer', undefined, 'fr');
    expect(built).toHaveBeenCalledTimes(1);
    expect(again.equals(first)).toBe(true);
    // A caller that writes into its copy changes nothing for the next one.
    first.fill(0);
    expect(template('jdr', 'employer').equals(again)).toBe(true);
    template('adf', 'employer');
    expect(built).toHaveBeenCalledTimes(2);
    // An unknown kind is refused, not kept.
    expect(() => template('jdr', 'nobody')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(built).toHaveBeenCalledTimes(2);
  });
});
