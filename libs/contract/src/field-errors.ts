import type { Lang } from '@ppfile/rules';
import { ApiError, errorBody, type ErrorBody } from './errors';

/** What is wrong with one field of a request, in each language (details.fields of INVALID_REQUEST). */
export interface FieldProblemText {
  field: string;
  message: Readonly<Record<Lang, string>>;
}

/**
 * 400 INVALID_REQUEST naming each field (API.md §6), for problems found before the caller's language
 * is at hand (the gateway's ValidationPipe): the messages are chosen when the body is written.
 */
export class InvalidFieldsError extends ApiError {
  constructor(readonly problems: readonly FieldProblemText[]) {
    super('INVALID_REQUEST', { count: problems.length });
  }

  /** The fields in `lang`, as details.fields holds them. */
  fieldsIn(lang: Lang): { field: string; message: string }[] {
    return this.problems.map((p) => ({ field: p.field, message: p.message[lang] }));
  }

  override body(lang: Lang, requestId: string): ErrorBody {
    const fields = this.fieldsIn(lang);
    return errorBody(
      {
        code: this.code,
        message: this.messageIn(lang),
        details: { fields, field_count: fields.length },
      },
      requestId,
    );
  }
}
