import type { Lang, MessageParams, RequestError } from '@ppfile/rules';
import type { RequestErrorCode } from './codes';
import { requestErrorMessage } from './messages';

/** The HTTP status of each error code of API.md §6. */
export const REQUEST_ERROR_STATUS: Readonly<Record<RequestErrorCode, number>> = {
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  UNSUPPORTED_SPEC_VERSION: 400,
  LINE_LIMIT_EXCEEDED: 413,
  VALIDATION_FAILED: 422,
  UNREADABLE_FILE: 400,
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
};

/** Seconds a client should wait before retrying after a 503 (a dependency is down): the API's and the dashboard's. */
export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;

/** The HTTP error body of API.md §6. */
export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

export function errorBody(
  error: { code: string; message: string; details?: Record<string, unknown> },
  requestId: string,
): ErrorBody {
  return {
    error: { code: error.code, message: error.message, details: error.details ?? {}, request_id: requestId },
  };
}

/**
 * The one HTTP error of ppfile (API.md §6). Its message comes from `requestErrorMessage` (the
 * format's catalogue or the contract's) in the caller's language, with non-personal parameters only;
 * a RequestError of the rules library (already worded) becomes one with `ApiError.from`.
 */
export class ApiError extends Error {
  readonly status: number;
  private readonly worded: string | null;

  constructor(
    readonly code: RequestErrorCode,
    readonly params: MessageParams = {},
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
    worded: string | null = null,
  ) {
    super(code);
    this.name = 'ApiError';
    this.status = REQUEST_ERROR_STATUS[code];
    this.worded = worded;
  }

  static from(error: RequestError): ApiError {
    return new ApiError(error.code, {}, error.details ?? {}, {}, error.message);
  }

  /** An error body kept by a failed file (API.md §7), answered again as it was. */
  static fromBody(
    body: { code?: string; message?: string; details?: Record<string, unknown> } | null | undefined,
  ): ApiError {
    const code = (
      body?.code && body.code in REQUEST_ERROR_STATUS ? body.code : 'INTERNAL_ERROR'
    ) as RequestErrorCode;
    return new ApiError(code, {}, body?.details ?? {}, {}, body?.message ?? null);
  }

  messageIn(lang: Lang): string {
    return this.worded ?? requestErrorMessage(this.code, lang, this.params);
  }

  body(lang: Lang, requestId: string): ErrorBody {
    return errorBody({ code: this.code, message: this.messageIn(lang), details: this.details }, requestId);
  }
}
