import { REQUEST_ERROR_STATUS, requestErrorMessage, type Lang, type MessageParams, type RequestErrorCode } from '@ppfile/rules';

/**
 * An HTTP error of API.md §6. The message is built by the exception filter in the caller's
 * language from the one catalogue (libs/rules messages), with these non-personal parameters.
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: RequestErrorCode,
    readonly params: MessageParams = {},
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.status = REQUEST_ERROR_STATUS[code];
  }

  message_(lang: Lang): string {
    return requestErrorMessage(this.code, lang, this.params);
  }
}
