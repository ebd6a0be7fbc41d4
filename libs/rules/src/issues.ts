import type { IssueCode } from './codes';
import type { Lang } from './catalogue';
import { issueMessage, type MessageParams } from './messages';

/** One entry of errors[] / warnings[] (API.md §4). */
export interface Issue {
  row: number | null;
  column: string | null;
  field?: string;
  code: IssueCode;
  message: string;
  /** Values of the message a client may show without parsing it: only for the codes of ISSUE_DETAILS. */
  details?: IssueDetails;
}

/** What `details` may hold (API.md §4): parameters of the message, never a value of a cell. */
export interface IssueDetails {
  /** FILING_DEADLINE_PASSED: the legal filing deadline, DD/MM/YYYY. */
  deadline?: string;
}

/** The codes whose entries carry `details`, and which of their message's parameters go there. */
export const ISSUE_DETAILS: Partial<Record<IssueCode, readonly (keyof IssueDetails)[]>> = {
  FILING_DEADLINE_PASSED: ['deadline'],
};

export interface IssueSummary {
  by_code: Record<string, number>;
  by_column: Record<string, number>;
}

/**
 * Collects errors and warnings: counts stay exact, lists stop at the cap (1,000), and the summary
 * counts every error, listed or not. Messages are built only for listed entries.
 */
export class IssueCollector {
  readonly errors: Issue[] = [];
  readonly warnings: Issue[] = [];
  errorCount = 0;
  warningCount = 0;
  private readonly byCode: Record<string, number> = {};
  private readonly byColumn: Record<string, number> = {};

  constructor(
    readonly lang: Lang,
    readonly cap: number,
  ) {}

  error(
    code: IssueCode,
    row: number | null,
    column: string | null,
    field?: string,
    params?: MessageParams,
  ): void {
    this.errorCount++;
    this.byCode[code] = (this.byCode[code] ?? 0) + 1;
    if (column) this.byColumn[column] = (this.byColumn[column] ?? 0) + 1;
    if (this.errors.length < this.cap) this.errors.push(this.entry(code, row, column, field, params));
  }

  warning(
    code: IssueCode,
    row: number | null,
    column: string | null,
    field?: string,
    params?: MessageParams,
  ): void {
    this.warningCount++;
    if (this.warnings.length < this.cap) this.warnings.push(this.entry(code, row, column, field, params));
  }

  get truncated(): boolean {
    return this.errorCount > this.errors.length;
  }

  summary(): IssueSummary {
    return { by_code: { ...this.byCode }, by_column: { ...this.byColumn } };
  }

  /** Lists in file order: a few checks (declaration size) report on a row seen earlier. */
  sorted(): { errors: Issue[]; warnings: Issue[] } {
    const byRow = (a: Issue, b: Issue): number => (a.row ?? 0) - (b.row ?? 0);
    return { errors: [...this.errors].sort(byRow), warnings: [...this.warnings].sort(byRow) };
  }

  private entry(
    code: IssueCode,
    row: number | null,
    column: string | null,
    field: string | undefined,
    params: MessageParams | undefined,
  ): Issue {
    const message = issueMessage(code, this.lang, { column: column ?? undefined, ...params });
    const issue: Issue =
      field === undefined ? { row, column, code, message } : { row, column, field, code, message };
    const keys = ISSUE_DETAILS[code];
    if (keys !== undefined && params !== undefined) {
      const details: IssueDetails = {};
      for (const key of keys) if (params[key] !== undefined) details[key] = params[key];
      issue.details = details;
    }
    return issue;
  }
}
