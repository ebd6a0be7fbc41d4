import { describe, expect, it } from '@jest/globals';
import { CURRENT_LIMITS } from '@ppfile/rules/format';
import { MAX_FILE_BYTES, fileTooLarge } from './file-size';

describe('fileTooLarge', () => {
  it('is the API’s limit, 20 MB', () => {
    expect(MAX_FILE_BYTES).toBe(CURRENT_LIMITS.maxBytes);
    expect(MAX_FILE_BYTES).toBe(20 * 1024 * 1024);
  });

  it('accepts a file at the limit and refuses one over it, in English and French', () => {
    expect(fileTooLarge(MAX_FILE_BYTES, 'en')).toBeNull();
    const size = Math.round(25.3 * 1024 * 1024);
    expect(fileTooLarge(size, 'en')).toBe('This file is 25.3 MB; the limit is 20 MB.');
    expect(fileTooLarge(size, 'fr')).toBe('Ce fichier fait 25,3\u00a0Mo\u00a0; la limite est de 20\u00a0Mo.');
  });

  it('never says a file just over the limit is the limit', () => {
    expect(fileTooLarge(MAX_FILE_BYTES + 1, 'en')).toBe('This file is 20.1 MB; the limit is 20 MB.');
  });
});
