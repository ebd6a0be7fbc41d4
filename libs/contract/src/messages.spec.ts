/**
 * The request errors' messages (API.md §6): one lookup for every code, the format's from the
 * catalogue of libs/rules, HTTP's from the contract's, in English and French.
 */
import { FIELD_PROBLEMS, FORMAT_ERROR_CODES, formatErrorMessage } from '@ppfile/rules';
import { HTTP_ERROR_CODES, REQUEST_ERROR_CODES } from './codes';
import { REQUEST_ERROR_STATUS } from './errors';
import { REQUEST_FIELD_PROBLEMS, requestErrorMessage } from './messages';

const PARAMS = { count: 2, limit: 50, expected: '2026-02' };

describe('the request error codes', () => {
  it('are the format’s, then HTTP’s, each once', () => {
    expect(REQUEST_ERROR_CODES).toEqual([...FORMAT_ERROR_CODES, ...HTTP_ERROR_CODES]);
    expect(new Set(REQUEST_ERROR_CODES).size).toBe(REQUEST_ERROR_CODES.length);
    expect(Object.keys(REQUEST_ERROR_STATUS).sort()).toEqual([...REQUEST_ERROR_CODES].sort());
  });

  it.each(REQUEST_ERROR_CODES)('%s has an English and a French message', (code) => {
    const en = requestErrorMessage(code, 'en', PARAMS);
    const fr = requestErrorMessage(code, 'fr', PARAMS);
    expect(en.length).toBeGreaterThan(10);
    expect(fr.length).toBeGreaterThan(10);
    expect(en).not.toBe(fr);
  });

  it.each(FORMAT_ERROR_CODES)('%s is worded by the format’s catalogue', (code) => {
    for (const lang of ['en', 'fr'] as const)
      expect(requestErrorMessage(code, lang, PARAMS)).toBe(formatErrorMessage(code, lang, PARAMS));
  });

  it('words HTTP’s codes with the parameters of the format’s catalogue', () => {
    expect(requestErrorMessage('QUOTA_EXCEEDED', 'en', { limit: 100, count: 3, mode: 'test' })).toBe(
      "The monthly allowance of 100 rows for this organization's test keys would be exceeded (3 requested); nothing was counted.",
    );
    expect(requestErrorMessage('INTERNAL_ERROR', 'fr', {})).toBe(
      "Une erreur inattendue s'est produite ; rien n'a été compté ni conservé.",
    );
  });
});

describe('REQUEST_FIELD_PROBLEMS', () => {
  it('holds the format’s field problems unchanged, and HTTP’s besides', () => {
    for (const [key, words] of Object.entries(FIELD_PROBLEMS))
      expect(REQUEST_FIELD_PROBLEMS[key as keyof typeof FIELD_PROBLEMS]).toBe(words);
    expect(Object.keys(REQUEST_FIELD_PROBLEMS)).toEqual(
      expect.arrayContaining(['idempotency_key', 'too_deep', 'percent_encoding', 'multipart_unreadable']),
    );
  });
});
