/**
 * Every failure to read or import reference data is one error type, so the CLI can print it as a
 * usage/I-O error (exit 2, API.md §11) and services can refuse to start with a readable message.
 */
export class ReferenceDataError extends Error {
  override readonly name = 'ReferenceDataError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
