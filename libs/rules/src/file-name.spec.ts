import { fileNameProblem, generatedFileName } from './file-name';

describe('fileNameProblem (the portal rule, API.md §4 INVALID_FILENAME)', () => {
  it('accepts a name of 200 characters ending in .csv', () => {
    expect(fileNameProblem(`${'a'.repeat(196)}.csv`)).toBeNull();
    expect(fileNameProblem('ppfile_adf_20261122_1a2b3c4d.csv')).toBeNull();
  });

  it('refuses more than 200 characters', () => {
    expect(fileNameProblem(`${'a'.repeat(197)}.csv`)).toBe('filename_length');
    expect(fileNameProblem(`${'é'.repeat(196)}.csv`)).toBeNull();
    expect(fileNameProblem(`${'😀'.repeat(197)}.csv`)).toBe('filename_length');
  });

  it.each(['@', '<', '>', ':', '"', '/', '\\', '|', '?', '*', '%'])('refuses %s', (c) => {
    expect(fileNameProblem(`a${c}b.csv`)).toBe('filename_character');
  });

  it.each(['a.txt', 'a', 'a.csv.gz', 'a.cs'])('refuses the extension of %s', (name) => {
    expect(fileNameProblem(name)).toBe('filename_extension');
  });
});

describe('generatedFileName', () => {
  it('is ppfile_<type>_<YYYYMMDD>_<8 hex>.csv', () => {
    expect(generatedFileName('adf', 20261122, '1a2b3c4d')).toBe('ppfile_adf_20261122_1a2b3c4d.csv');
    expect(fileNameProblem(generatedFileName('jdr', 20270101, 'deadbeef'))).toBeNull();
  });
});
