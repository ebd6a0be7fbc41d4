/** Validation issue codes of API.md §4 (errors and warnings). Codes are never renamed. */
export const ISSUE_CODES = [
  // file-level
  'EMPTY_FILE',
  'INVALID_ENCODING',
  'INVALID_SEPARATOR',
  'INVALID_HEADER',
  'INVALID_FILENAME',
  'COLUMN_COUNT',
  // cells
  'REQUIRED_FIELD',
  'FIELD_NOT_ALLOWED',
  'FIELD_TOO_LONG',
  'INVALID_VALUE',
  'VALUE_COUNT',
  'INVALID_CHARACTER',
  'INVALID_DATE',
  'FUTURE_DATE',
  'END_BEFORE_START',
  'VALIDITY_BEFORE_TRAINING_END',
  'VALIDITY_END_BEFORE_START',
  'INVALID_NIR',
  'INVALID_NIR_KEY',
  'INVALID_SIRET',
  'INVALID_SIRET_KEY',
  'INVALID_FORMACODE',
  'INVALID_NSF_CODE',
  'INVALID_ROME_CODE',
  'INVALID_RS_CODE',
  'INVALID_URL',
  'FORMULA_NOT_ALLOWED',
  // across rows
  'DUPLICATE_UNIQUE_ID',
  'INCONSISTENT_DECLARATION',
  'DECLARATION_TOO_LARGE',
  // warnings only
  'REFERENCE_NOT_VERIFIED',
  'DUPLICATE_HOLDER',
  'LF_LINE_ENDINGS',
  'NIR_PROVISIONAL',
  'FILING_DEADLINE_PASSED',
  'NO_DATA_ROWS',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

/**
 * The request errors the format itself raises (RequestError, API.md §6): a body that is not JSON, not
 * the declaration shape, of an unknown spec version, over its row limit, or with invalid rows. The
 * codes only HTTP knows (keys, quotas, files, media types, …) are the contract's (libs/contract
 * REQUEST_ERROR_CODES, which lists these first).
 */
export const FORMAT_ERROR_CODES = [
  'INVALID_JSON',
  'INVALID_REQUEST',
  'UNSUPPORTED_SPEC_VERSION',
  'LINE_LIMIT_EXCEEDED',
  'VALIDATION_FAILED',
  // A spreadsheet that is not a readable XLSX or CSV, or would expand past the bounds (API.md §14).
  'UNREADABLE_FILE',
] as const;
export type FormatErrorCode = (typeof FORMAT_ERROR_CODES)[number];
