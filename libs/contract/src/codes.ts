import { FORMAT_ERROR_CODES } from '@ppfile/rules';

/**
 * The request errors only HTTP knows (API.md §6): keys, resources and stored files, idempotency,
 * bodies and media types, limits and quotas, the service's own failures. The format's refusals are
 * libs/rules FORMAT_ERROR_CODES.
 */
export const HTTP_ERROR_CODES = [
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'NOT_FOUND',
  'FILE_NOT_STORED',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_IN_PROGRESS',
  'FILE_NOT_AVAILABLE',
  'FILE_EXPIRED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'REQUEST_TIMEOUT',
  'RATE_LIMIT_EXCEEDED',
  'QUOTA_EXCEEDED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

/** Every code of the HTTP error body (API.md §6): the format's, then HTTP's (the order of openapi.json). */
export const REQUEST_ERROR_CODES = [...FORMAT_ERROR_CODES, ...HTTP_ERROR_CODES] as const;
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];
