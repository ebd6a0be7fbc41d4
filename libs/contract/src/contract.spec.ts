/** The HTTP contract: error body and statuses, the generate response body, ids. */
import { generateFile, RequestError } from '@ppfile/rules';
import { body, testEnv } from '@ppfile/rules/testing/format-helpers';
import { errorBody, REQUEST_ERROR_STATUS } from './errors';
import { newFileId } from './ids';
import { generateResponseBody } from './responses';

describe('errorBody', () => {
  it('has the shape of API.md §6', () => {
    const err = RequestError.of('LINE_LIMIT_EXCEEDED', 'en', { limit: 50 }, { limit: 50 });
    expect(errorBody(err, 'req_1')).toEqual({
      error: {
        code: 'LINE_LIMIT_EXCEEDED',
        message: err.message,
        details: { limit: 50 },
        request_id: 'req_1',
      },
    });
    expect(errorBody({ code: 'INVALID_JSON', message: 'm' }, 'req_2').error.details).toEqual({});
  });

  it('maps each request error to its status', () => {
    expect(REQUEST_ERROR_STATUS).toEqual({
      INVALID_JSON: 400,
      INVALID_REQUEST: 400,
      UNSUPPORTED_SPEC_VERSION: 400,
      UNREADABLE_FILE: 400,
      LINE_LIMIT_EXCEEDED: 413,
      VALIDATION_FAILED: 422,
      MISSING_API_KEY: 401,
      INVALID_API_KEY: 401,
      NOT_FOUND: 404,
      FILE_NOT_STORED: 404,
      IDEMPOTENCY_KEY_REUSED: 409,
      IDEMPOTENCY_IN_PROGRESS: 409,
      FILE_NOT_AVAILABLE: 409,
      FILE_EXPIRED: 410,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      REQUEST_TIMEOUT: 408,
      RATE_LIMIT_EXCEEDED: 429,
      QUOTA_EXCEEDED: 429,
      SERVICE_UNAVAILABLE: 503,
      INTERNAL_ERROR: 500,
    });
  });
});

describe('generateResponseBody', () => {
  const file = generateFile(body('adf', 'employer'), testEnv({ randomHex: () => '00ff00ff' }));

  it('carries content only when the file is not stored', () => {
    const notStored = generateResponseBody(file, {
      file_id: 'file_x',
      mode: 'test',
      stored: false,
      expires_at: null,
      download_url: null,
    });
    expect(notStored.content).toBe(file.content.toString('utf8'));
    expect(notStored).toMatchObject({
      success: true,
      stored: false,
      rows: 2,
      declarations: 1,
      filename: 'ppfile_adf_20261122_00ff00ff.csv',
    });
    const stored = generateResponseBody(file, {
      file_id: 'file_x',
      mode: 'live',
      stored: true,
      expires_at: '2026-11-23T10:00:00.000Z',
      download_url: 'http://localhost:3000/v1/files/file_x/download',
    });
    expect('content' in stored).toBe(false);
    expect(stored.download_url).toBe('http://localhost:3000/v1/files/file_x/download');
  });
});

describe('newFileId', () => {
  it('is file_ + 32 lowercase hex characters, random', () => {
    const a = newFileId();
    expect(a).toMatch(/^file_[0-9a-f]{32}$/);
    expect(newFileId()).not.toBe(a);
  });
});
